import { configDefaults, defineConfig } from 'vitest/config';
import { haproxyTestsAvailable, s3TestsAvailable } from './scripts/optional-suites.mjs';
import LongestFirst from './test/setup/longest-first.js';

// Everything that stores something runs once per storage engine; the rest once.
const perEngine = ['test/http/**/*.test.ts', 'test/process/**/*.test.ts', 'test/store/**/*.test.ts'];

// In those files, a test that no engine or file store takes part in (request validation, the contract's
// shape, refusals before any lookup, pure HTTP behaviour, a job's own timing) is tagged 'one-engine': it runs
// in the sqlite project only, and the postgres and s3 projects skip it. A test stays untagged when any of
// its answers comes from a query or a stored file (a token looked up, a row listed, a lock or a bucket).
const oneEngineOnly = ['!one-engine'];

// What no storage engine takes part in, though it stores files on the way: the parser's defences against
// hostile PDFs, and its threads giving way to requests; part bodies refused by the process's caps while they
// are sent (the HTTP layer's); and a full disk, which is the embedded default's
// (SQLite and blobs on one small filesystem). Once, on the embedded default. (A file whose every test is
// no engine's goes here rather than being tagged 'one-engine': a skipped file still costs its imports.)
const onceOnly = [
  'test/http/parser-gives-way.test.ts',
  'test/process/hostile.test.ts',
  'test/process/refused-bodies.test.ts',
  'test/process/full-disk.test.ts',
  'test/process/full-disk-runs.test.ts',
];

// The scale-out deployment (PostgreSQL + S3): the upload, run and kill -9 suites again, and its own.
const s3 = s3TestsAvailable();
if (!s3.run && process.env.TEST_S3_REQUIRED === 'true') throw new Error(s3.reason);
const haproxy = haproxyTestsAvailable();
if (!haproxy.run && process.env.TEST_S3_REQUIRED === 'true') throw new Error(haproxy.reason);
// The HTTP files whose every test stores files: on a machine with S3 the s3 project runs them on PostgreSQL
// (with S3 for the files), the sqlite project on the local disk, and the postgres project leaves them out,
// as it would run each of their assertions a third time on an engine and a file store already covered. The
// same for a test or describe tagged 'both-stores' in a file the s3 project runs (test/process/crash.test.ts).
const filesOnBothStores = [
  'test/http/uploads.test.ts',
  'test/http/upload-races.test.ts',
  'test/http/runs.test.ts',
  'test/http/offboarding.test.ts',
];
const s3Project = {
  extends: true as const,
  test: {
    name: 's3',
    include: [...filesOnBothStores, 'test/process/crash.test.ts', 'test/s3/**/*.test.ts'],
    tagsFilter: oneEngineOnly,
    env: { TEST_ENGINE: 'postgres', TEST_BLOBS: 's3' },
    setupFiles: ['test/setup/leftover-processes.ts'],
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts', 'test/setup/s3.ts'],
  },
};

// The HTTP tests that need two server processes (a lock, a bucket, a queue or a stream shared through the
// database) again, through HAProxy in front of two servers on one PostgreSQL database: the tests tagged
// 'two-processes', listed in the README. Everything else runs in the sqlite and postgres projects. The
// files are named rather than globbed: with every HTTP file included, a fresh clone's run (no vitest results
// cache) found no test files at all.
const haproxyProject = {
  extends: true as const,
  test: {
    name: 'haproxy',
    include: [
      'test/http/events.test.ts',
      'test/http/hardening.test.ts',
      'test/http/retries.test.ts',
      'test/http/run-queue.test.ts',
      'test/http/runs.test.ts',
      'test/http/stream-revocation.test.ts',
      'test/http/uploads.test.ts',
    ],
    tagsFilter: ['two-processes'],
    env: { TEST_ENGINE: 'postgres', TEST_THROUGH_HAPROXY: 'true' },
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
  },
};

// (the projects that filter by tag are declared apart: vitest's types take tagsFilter for the whole run
// only, though each project applies its own)
const postgresProject = {
  extends: true as const,
  test: {
    name: 'postgres',
    include: [...perEngine, 'test/postgres/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...onceOnly, ...(s3.run ? filesOnBothStores : [])],
    tagsFilter: s3.run ? [...oneEngineOnly, '!both-stores'] : oneEngineOnly,
    env: { TEST_ENGINE: 'postgres' },
    setupFiles: ['test/setup/leftover-processes.ts'],
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
  },
};

export default defineConfig({
  test: {
    testTimeout: 60_000,
    tags: [
      {
        name: 'two-processes',
        description: 'needs two server processes behind one address: runs again in the haproxy project',
      },
      {
        name: 'both-stores',
        description:
          'the file store takes part: runs in sqlite and s3, and in postgres only where s3 does not run',
      },
      {
        name: 'one-engine',
        description: 'no storage engine takes part in it: runs in the sqlite project only',
      },
    ],
    hookTimeout: 60_000,
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    projects: [
      {
        extends: true,
        // the unit files share their workers' module graph (isolate: false): none mocks a module or fakes
        // timers, and they pass in any order (checked with --sequence.shuffle.files); it saves each file a
        // process and its imports, 57 to 41 s of CPU
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'clients/typescript/test/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [...perEngine, 'test/sqlite/**/*.test.ts'],
          env: { TEST_ENGINE: 'sqlite' },
          setupFiles: ['test/setup/leftover-processes.ts'],
          globalSetup: ['test/setup/build.ts'],
        },
      },
      postgresProject,
      ...(s3.run ? [s3Project] : []),
      ...(haproxy.run ? [haproxyProject] : []),
    ],
  },
});
