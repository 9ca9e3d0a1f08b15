#!/usr/bin/env node
// Runs the whole vitest suite and ends with one plain line "N passed, N failed" that CI can read, so a
// run that executed no test is visible. Exit code: vitest's, or 1 when nothing ran.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { haproxyTestsAvailable, s3TestsAvailable } from './optional-suites.mjs';

// the runtime the suites run on (CI asserts it is the project's own Node.js 24)
console.log(`tests run on Node.js ${process.version}`);
const dir = mkdtempSync(path.join(tmpdir(), 'ota-vitest-'));
const report = path.join(dir, 'report.json');
const result = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=./test/setup/time-per-project.ts',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let failedFiles = 0;
try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  // A file that fails to load or whose hooks throw has no failed test in it: count it, or the line lies.
  const brokenFiles = summary.testResults.filter((file) => file.status !== 'passed');
  failedFiles = brokenFiles.length;
  const filesWithoutFailedTest = brokenFiles.filter(
    (file) => !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  failed = summary.numFailedTests + filesWithoutFailedTest;
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
const ok = result.status === 0 && failed === 0 && passed > 0;
if (!ok && failed === 0) failed = 1; // vitest failed for a reason its report does not show
if (failedFiles > 0) console.log(`${failedFiles} test file(s) failed or did not load`);
// a run of chosen projects (npm run test:quick) skipped nothing it was asked for
if (!process.argv.includes('--project')) {
  const s3 = s3TestsAvailable();
  if (!s3.run) console.log(s3.reason);
  const haproxy = haproxyTestsAvailable();
  if (!haproxy.run) console.log(haproxy.reason);
}
console.log(`Node.js ${process.version}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : result.status || 1);
