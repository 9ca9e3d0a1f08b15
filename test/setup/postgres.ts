/**
 * The PostgreSQL project's server: TEST_DATABASE_URL when set (a server of your own; each test makes its
 * own database on it), else a throwaway cluster started here and removed afterwards. When neither works
 * the PostgreSQL suites fail with the reason: they never pass without having run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalPostgres } from '../../src/cli/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-postgres-'));
  const port = 40_000 + Math.floor(Math.random() * 20_000);
  let server;
  try {
    server = await startLocalPostgres(dir, port);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `The PostgreSQL suites cannot run: no PostgreSQL server could be started (${(error as Error).message}). ` +
        'Set TEST_DATABASE_URL to a server of yours, or install PostgreSQL.',
    );
  }
  project.provide('postgresUrl', server.url);
  return () => {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
