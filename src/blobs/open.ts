import path from 'node:path';
import type { Config } from '../kernel/config.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local/local-blob-store.js';

/**
 * The blob store the configuration chooses. The S3 engine (and the AWS SDK) is loaded only when chosen, so
 * the embedded default starts without it.
 */
export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (config.blobs.kind === 'local') return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
  const { S3BlobStore } = await import('./s3/s3-blob-store.js');
  return new S3BlobStore(config.blobs);
}
