/**
 * The PostgreSQL server of every project that needs one (postgres, s3, haproxy): TEST_DATABASE_URL when set
 * (a server of your own), else one throwaway cluster started for the whole run and removed afterwards
 * (./shared-servers.ts). Each test takes its own database on it: a clone of a template that the current
 * migrations were applied to once (`CREATE DATABASE … TEMPLATE`), or an empty one for the tests of the
 * migrations themselves. When no server works the PostgreSQL suites fail with the reason: they never pass
 * without having run.
 */
import type { TestProject } from 'vitest/node';
import { useShared } from './shared-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** A database with every migration applied, which no one connects to: the source of each clone. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const { shared, release } = await useShared('postgres');
  project.provide('postgresUrl', shared.url);
  project.provide('postgresTemplate', shared.template);
  return release;
}
