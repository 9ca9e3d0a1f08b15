/**
 * OpenStack Swift (S3 API) on loopback, started by scripts/swift.sh: for the tests, the bench and
 * `npm run stack`. The script prints the settings a process needs; this reads them.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createS3Client } from '../src/blobs/s3/s3-blob-store.js';
import { PROJECT_ROOT } from '../src/contract/paths.js';

const SCRIPT = path.join(PROJECT_ROOT, 'scripts', 'swift.sh');
const execFileAsync = promisify(execFile);

export interface LocalSwift extends S3Server {
  /** S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, S3_REGION, as a process's environment. */
  env: Record<string, string>;
  stop(): void;
}

/** Starts Swift with its rings, disks and logs in `dir`, the proxy on `port` (and the four ports after it). */
export function startLocalSwift(dir: string, port: number): LocalSwift {
  const printed = execFileSync('bash', [SCRIPT, 'start', dir, String(port)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return localSwift(dir, printed);
}

/** startLocalSwift with the caller's event loop free meanwhile (Swift takes seconds to answer). */
export async function startLocalSwiftInBackground(dir: string, port: number): Promise<LocalSwift> {
  const { stdout } = await execFileAsync('bash', [SCRIPT, 'start', dir, String(port)], { encoding: 'utf8' });
  return localSwift(dir, stdout);
}

function localSwift(dir: string, printed: string): LocalSwift {
  const env = Object.fromEntries(
    printed
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split('=') as [string, string]),
  );
  return {
    env,
    endpoint: env.S3_ENDPOINT!,
    accessKeyId: env.AWS_ACCESS_KEY_ID!,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY!,
    region: env.S3_REGION!,
    stop: () => stopLocalSwift(dir),
  };
}

/** Stops what startLocalSwift started in `dir`, from any process; returns once every process is gone. */
export function stopLocalSwift(dir: string): void {
  execFileSync('bash', [SCRIPT, 'stop', dir]);
}

/** stopLocalSwift with the caller's event loop free meanwhile. */
export async function stopLocalSwiftInBackground(dir: string): Promise<void> {
  await execFileAsync('bash', [SCRIPT, 'stop', dir]);
}

export interface S3Server {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/**
 * Creates `bucket` on an S3-compatible server (path-style); one that is already ours is fine, and a 503 is
 * tried again for up to 15 s.
 */
export async function createBucket(server: S3Server, bucket: string): Promise<void> {
  const client = createS3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
  });
  // a Swift that has just started can answer 503 while its account and container servers warm up: past
  // 15 s once, on a machine the whole suite loaded (the faults suite starts a Swift of its own)
  const deadline = Date.now() + 45_000;
  try {
    for (;;) {
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        return;
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'BucketAlreadyOwnedByYou') return;
        if (name !== 'ServiceUnavailable' || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    client.destroy();
  }
}
