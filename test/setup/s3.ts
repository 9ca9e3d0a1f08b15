/**
 * The S3 project's object store: TEST_S3_ENDPOINT when set (with TEST_S3_ACCESS_KEY_ID and
 * TEST_S3_SECRET_ACCESS_KEY, default Swift's test:tester / testing), else a throwaway OpenStack Swift started
 * with scripts/swift.sh (./shared-servers.ts) and stopped afterwards. When neither works the S3 suites fail
 * with the reason.
 */
import type { TestProject } from 'vitest/node';
import type { S3Server } from '../../stack/swift.js';
import { useShared } from './shared-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    s3Server: S3Server;
  }
}

export default async function setup(project: TestProject) {
  const { shared, release } = await useShared('swift');
  project.provide('s3Server', shared.server);
  return release;
}
