/**
 * The S3 project's object store: TEST_S3_ENDPOINT when set (with TEST_S3_ACCESS_KEY_ID and
 * TEST_S3_SECRET_ACCESS_KEY, default Swift's test:tester / testing), else a throwaway OpenStack Swift started
 * here with scripts/swift.sh and stopped afterwards. When neither works the S3 suites fail with the reason.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalSwift, type S3Server, startLocalSwift, stopLocalSwift } from '../../stack/swift.js';

declare module 'vitest' {
  export interface ProvidedContext {
    s3Server: S3Server;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.TEST_S3_ENDPOINT;
  if (given) {
    project.provide('s3Server', {
      endpoint: given,
      accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? 'test:tester',
      secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? 'testing',
      region: process.env.TEST_S3_REGION ?? 'us-east-1',
    });
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-swift-'));
  const port = 30_000 + Math.floor(Math.random() * 9_000);
  let swift: LocalSwift;
  try {
    swift = startLocalSwift(dir, port);
  } catch (error) {
    stopLocalSwift(dir);
    rmSync(dir, { recursive: true, force: true });
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    throw new Error(
      `The S3 suites cannot run: Swift did not start (${stderr || (error as Error).message}). ` +
        'Set TEST_S3_ENDPOINT to an S3 server of yours, or install Swift: bash scripts/swift.sh install',
    );
  }
  const { endpoint, accessKeyId, secretAccessKey, region } = swift;
  project.provide('s3Server', { endpoint, accessKeyId, secretAccessKey, region });
  return () => {
    swift.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
