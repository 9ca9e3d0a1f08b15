#!/usr/bin/env node
// `npm start` and `npm run worker` build dist/ only when a source is newer than the last build, and say so
// in one line (the compiler and redocly are quiet unless they fail).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const sources = [
  'src',
  'generated',
  // the admin CLI's commands are the client's (`ota admin`)
  'clients/typescript/src',
  'clients/typescript/generated',
  'openapi.yaml',
  'scripts/build-docs.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package-lock.json',
];

function newest(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const info = statSync(full);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(full).map((name) => newest(path.join(entry, name))));
}

const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
if (sources.some((entry) => newest(entry) > builtAt)) {
  const started = Date.now();
  // the code and the docs are built side by side: every test run and first start waits for the slower
  const results = await Promise.all(
    ['build:code', 'docs'].map(
      (script) =>
        new Promise((resolve) => {
          const child = spawn('npm', ['run', '--silent', script], { cwd: root, shell: false });
          let output = '';
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (status) => resolve({ script, status, output }));
        }),
    ),
  );
  for (const { script, status, output } of results) {
    if (status !== 0) {
      process.stderr.write(`${output}build failed (npm run ${script})\n`);
      process.exit(status ?? 1);
    }
  }
  writeFileSync(stamp, new Date().toISOString());
  process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
