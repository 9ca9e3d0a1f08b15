#!/usr/bin/env node
// `npm start` and `npm run worker` build dist/ only when a source is newer than the last build, and say so
// in one line (the compiler and redocly are quiet unless they fail).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const sources = [
  'src',
  'generated',
  // the admin CLI's table printer is the client's
  'clients/typescript/src/terminal.ts',
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
  for (const script of ['build:code', 'docs']) {
    const result = spawnSync('npm', ['run', '--silent', script], {
      cwd: root,
      encoding: 'utf8',
      shell: false,
    });
    if (result.status !== 0) {
      process.stderr.write(`${result.stdout}${result.stderr}build failed (npm run ${script})\n`);
      process.exit(result.status ?? 1);
    }
  }
  writeFileSync(stamp, new Date().toISOString());
  process.stdout.write(`built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
