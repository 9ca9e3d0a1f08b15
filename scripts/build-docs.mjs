#!/usr/bin/env node
// The references the server shows: the public one (dist/docs/index.html) and the public contract
// (dist/openapi.public.yaml) without the platform's admin operations, which the public listener does not
// serve; and the whole contract's reference for the admin listener (dist/docs/admin.html).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const cli = ['node_modules/@redocly/cli/bin/cli.js'];
const options = {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
};
const redocly = (...args) => {
  const result = spawnSync(process.execPath, [...cli, ...args], options);
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const work = mkdtempSync(path.join(tmpdir(), 'ota-docs-'));
try {
  mkdirSync('dist/docs', { recursive: true });
  // the admin reference needs nothing of the public one's steps: it is built beside them
  const admin = spawn(
    process.execPath,
    [...cli, 'build-docs', 'openapi.yaml', '--output', 'dist/docs/admin.html'],
    options,
  );
  const adminDone = once(admin, 'exit');
  const full = path.join(work, 'full.json');
  redocly('bundle', 'openapi.yaml', '--ext', 'json', '-o', full);
  const contract = JSON.parse(readFileSync(full, 'utf8'));
  const adminTags = new Set();
  for (const [route, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.['x-audience'] !== 'admin') continue;
      for (const tag of operation.tags ?? []) adminTags.add(tag);
      delete item[method];
    }
    const left = Object.keys(item).filter((key) => key !== 'parameters' && !key.startsWith('x-'));
    if (left.length === 0) delete contract.paths[route];
  }
  contract.tags = (contract.tags ?? []).filter((tag) => !adminTags.has(tag.name));
  delete contract.components.securitySchemes.adminAuth;
  const publicJson = path.join(work, 'public.json');
  writeFileSync(publicJson, JSON.stringify(contract));
  redocly(
    'bundle',
    publicJson,
    '--remove-unused-components',
    '--ext',
    'yaml',
    '-o',
    'dist/openapi.public.yaml',
  );
  redocly('build-docs', 'dist/openapi.public.yaml', '--output', 'dist/docs/index.html');
  const [adminStatus] = await adminDone;
  if (adminStatus !== 0) process.exit(adminStatus ?? 1);
} finally {
  rmSync(work, { recursive: true, force: true });
}
