#!/usr/bin/env node
// Runs the whole vitest suite and ends with one plain line "N passed, N failed" that CI can read, so a
// run that executed no test is visible. Exit code: vitest's, or 1 when nothing ran.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = mkdtempSync(path.join(tmpdir(), 'ota-vitest-'));
const report = path.join(dir, 'report.json');
const result = spawnSync(
  process.execPath,
  [
    'node_modules/vitest/vitest.mjs',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
try {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  passed = summary.numPassedTests;
  failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites ?? 0);
} catch {
  failed = Math.max(failed, 1);
}
rmSync(dir, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(result.status !== 0 ? (result.status ?? 1) : passed === 0 ? 1 : 0);
