/**
 * Which blob store the running test project uses (local disk, or S3 on the test's Swift: the `s3` project),
 * a bucket of its own for each deployment, and looks at what a deployment stored, whichever the engine.
 */
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { inject } from 'vitest';
import type { BlobStore } from '../../src/blobs/blob-store.js';
import { createBucket } from '../../stack/swift.js';
import { S3_MIN_PART_SIZE } from '../../src/kernel/config.js';

export type BlobEngine = 'local' | 's3';

export const blobEngine: BlobEngine = process.env.TEST_BLOBS === 's3' ? 's3' : 'local';

/** A suite's own small part size, or S3's floor when the parts go to S3. */
export const partSize = (small: number) => (blobEngine === 's3' ? Math.max(small, S3_MIN_PART_SIZE) : small);

/** The S3 server's credentials, as a process's environment. */
export function s3ServerEnv(): Record<string, string> {
  const server = inject('s3Server');
  return {
    S3_ENDPOINT: server.endpoint,
    S3_REGION: server.region,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
  };
}

/** A new empty bucket on the test's S3 server. */
export async function newBucket(): Promise<string> {
  const bucket = `ota-test-${randomBytes(6).toString('hex')}`;
  await createBucket(inject('s3Server'), bucket);
  return bucket;
}

/** The environment that gives a deployment the project's blob store: nothing, or a new bucket. */
export async function blobEnv(): Promise<Record<string, string>> {
  if (blobEngine === 'local') return {};
  return { BLOB_STORE: 's3', S3_BUCKET: await newBucket(), ...s3ServerEnv() };
}

/** The assembled files a tenant has in the store. */
export async function storedFiles(blobs: BlobStore, tenantId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of blobs.keys(`files/${tenantId}`)) if (key.endsWith('.pdf')) keys.push(key);
  return keys;
}

/** Whether any part of an upload is still kept. */
export async function partsKept(blobs: BlobStore, tenantId: string, uploadId: string): Promise<boolean> {
  for await (const _ of blobs.keys(`uploads/${tenantId}/${uploadId}`)) return true;
  for await (const open of blobs.multipart.listOpen(`files/${tenantId}`)) {
    if (open.key === `files/${tenantId}/${uploadId}.pdf`) return true;
  }
  return false;
}

/** `bytes` made about `size` bytes long by an unreferenced object of random bytes: the PDF reads the same. */
export async function padPdf(bytes: Uint8Array, size: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const filler = doc.context.stream(randomBytes(Math.max(0, size - bytes.length - 200)));
  doc.context.register(filler);
  return doc.save({ useObjectStreams: false });
}
