#!/usr/bin/env node
// The contracts and references each listener serves: the public one's (dist/openapi.public.yaml,
// dist/docs/index.html) without the platform's admin operations, and the admin listener's
// (dist/openapi.admin.yaml, dist/docs/admin.html) with only what that listener serves. Both references carry
// Redoc inside them (`--inlineBundle`): offline, and in a deployment that cannot reach a CDN, a reference
// that loads its script from the internet shows no operation at all.
import { spawnSync } from 'node:child_process';
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

/**
 * A relative server: the reference and the contract name the server they were read from, whatever its
 * PORT, HOST or the proxy in front of it (Redoc resolves it against the page's address). openapi.yaml's own
 * `http://localhost:8080` is right for `npm start` with nothing set only.
 */
const THIS_SERVER = [
  {
    url: '/',
    description:
      'The server this contract was read from. It speaks plain HTTP; a deployment puts a ' +
      "TLS-terminating proxy in front of it and gives its users that proxy's https URL.",
  },
];

const ADMIN_INTRODUCTION =
  'The platform\'s admin API (the "Platform admin" operations), as the admin listener serves it ' +
  "(`ADMIN_PORT`, bound to `ADMIN_HOST`), with admin tokens (`adminAuth`). The tenants' operations " +
  "(`/api/open/*`) are served on the public listener only; its reference is that listener's `/docs`. " +
  'What follows holds for both listeners.';

/** The operations a listener serves: each audience's own, and those with no audience (health, readiness). */
function servedTo(contract, audience) {
  const served = JSON.parse(JSON.stringify(contract));
  const leftTags = new Set();
  for (const [route, item] of Object.entries(served.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const isAdmin = operation['x-audience'] === 'admin';
      const isOpen = Array.isArray(operation.security) && operation.security.length === 0;
      if (isOpen || isAdmin === (audience === 'admin')) {
        for (const tag of operation.tags ?? []) leftTags.add(tag);
      } else {
        delete item[method];
      }
    }
    const left = Object.keys(item).filter((key) => key !== 'parameters' && !key.startsWith('x-'));
    if (left.length === 0) delete served.paths[route];
  }
  served.tags = (served.tags ?? []).filter((tag) => leftTags.has(tag.name));
  served.servers = THIS_SERVER;
  if (audience === 'admin') {
    served.info.title = `${contract.info.title}: platform admin`;
    // the public introduction's first paragraph speaks to tenants; the sections after it hold for both
    const [, ...sections] = (contract.info.description ?? '').split('\n\n');
    served.info.description = [ADMIN_INTRODUCTION, ...sections].join('\n\n');
    served.security = [{ adminAuth: [] }];
    delete served.components.securitySchemes.bearerAuth;
  } else {
    delete served.components.securitySchemes.adminAuth;
  }
  return served;
}

const work = mkdtempSync(path.join(tmpdir(), 'ota-docs-'));
try {
  mkdirSync('dist/docs', { recursive: true });
  const full = path.join(work, 'full.json');
  redocly('bundle', 'openapi.yaml', '--ext', 'json', '-o', full);
  const contract = JSON.parse(readFileSync(full, 'utf8'));
  const listeners = [
    { audience: 'tenant', contract: 'dist/openapi.public.yaml', docs: 'dist/docs/index.html' },
    { audience: 'admin', contract: 'dist/openapi.admin.yaml', docs: 'dist/docs/admin.html' },
  ];
  // one after the other: the machine these run on is small, and each step needs the one before
  for (const listener of listeners) {
    const served = servedTo(contract, listener.audience);
    const json = path.join(work, `${listener.audience}.json`);
    writeFileSync(json, JSON.stringify(served));
    redocly('bundle', json, '--remove-unused-components', '--ext', 'yaml', '-o', listener.contract);
    redocly(
      'build-docs',
      listener.contract,
      '--inlineBundle',
      '--title',
      served.info.title,
      '--output',
      listener.docs,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
