#!/usr/bin/env node
// The contracts and references each listener serves: the public one's (dist/openapi.public.yaml,
// dist/docs/index.html) without the platform's admin operations, and the admin listener's
// (dist/openapi.admin.yaml, dist/docs/admin.html) with only what that listener serves. Both references carry
// Redoc inside them (`--inlineBundle`): offline, and in a deployment that cannot reach a CDN, a reference
// that loads its script from the internet shows no operation at all.
//
// Beside the public reference: the changelog (dist/docs/changelog.html), rendered from the version registry
// (src/versions/registry.ts) by src/http/docs-pages.ts, and the reference of every supported version
// (dist/docs/v/<version>.html) from the newest contract taken down to it (`contractAt`). The registry is
// read from its TypeScript source through tsx: the docs are built side by side with dist/src
// (scripts/build-if-stale.mjs), so the compiled registry may not exist yet, or be the previous build's.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const { VERSIONS, VERSION_CHANGES, SUPPORTED_VERSIONS, NEWEST_VERSION, contractAt } = await tsImport(
  '../src/versions/registry.ts',
  import.meta.url,
);
const { changelogPage, changelogPath, versionReferencePath } = await tsImport(
  '../src/http/docs-pages.ts',
  import.meta.url,
);

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

/**
 * Where the tenants' reference says which version it is and where the others are: the sidebar gets a
 * section of its own. Absolute links: Redoc renders them in the page it is served as (`/docs`, `/docs/v/...`).
 */
function versionsSection(version) {
  const others = SUPPORTED_VERSIONS.filter((v) => v !== version);
  const lines = [
    '## Changelog and other versions',
    `This reference is version \`${version}\`${version === NEWEST_VERSION ? ', the newest' : ''}; its contract is ` +
      `[/openapi.yaml?version=${version}](/openapi.yaml?version=${version}). ` +
      'What changed from one version to the next, and why: [the changelog](/docs/changelog).',
  ];
  if (others.length > 0) {
    lines.push(
      `The reference of ${others.length === 1 ? 'the other supported version' : 'every other supported version'}: ` +
        others.map((v) => `[${v}](${v === NEWEST_VERSION ? '/docs' : `/docs/v/${v}`})`).join(', ') +
        '.',
    );
  }
  return lines.join('\n\n');
}

/** An older version's reference says so first, and how to reach the newest (Redoc shows the version by the title). */
function atVersion(served, version) {
  served.info.version = version;
  if (version === NEWEST_VERSION) return served;
  const notice =
    `> This is the reference of version \`${version}\`, which an integration pinned to it keeps. The newest ` +
    `version is \`${NEWEST_VERSION}\`: [its reference](/docs), and [the changelog](/docs/changelog) says ` +
    'what changed.';
  served.info.description = `${notice}\n\n${served.info.description ?? ''}`;
  return served;
}

/** operationId to `GET /api/open/events`, for the changelog. */
function operationNames(contract) {
  const names = {};
  for (const [route, item] of Object.entries(contract.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation === 'object' && operation?.operationId) {
        names[operation.operationId] = `${method.toUpperCase()} ${route}`;
      }
    }
  }
  return names;
}

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
  // the newest version's reference is the public listener's own (`/docs`); older ones are built apart
  const older = SUPPORTED_VERSIONS.filter((version) => version !== NEWEST_VERSION);
  const listeners = [
    { audience: 'tenant', contract: 'dist/openapi.public.yaml', docs: 'dist/docs/index.html' },
    { audience: 'admin', contract: 'dist/openapi.admin.yaml', docs: 'dist/docs/admin.html' },
    ...older.map((version) => ({
      audience: 'tenant',
      version,
      // the listener serves an older version's contract from the newest (`/openapi.yaml?version=`)
      contract: path.join(work, `public-${version}.yaml`),
      docs: path.relative(process.cwd(), versionReferencePath(version)),
    })),
  ];
  mkdirSync('dist/docs/v', { recursive: true });
  // one after the other: the machine these run on is small, and each step needs the one before
  for (const listener of listeners) {
    const version = listener.version ?? NEWEST_VERSION;
    let served = servedTo(
      listener.version ? contractAt(contract, listener.version) : contract,
      listener.audience,
    );
    if (listener.audience === 'tenant') {
      served = atVersion(served, version);
      served.info.description = `${served.info.description ?? ''}\n\n${versionsSection(version)}`;
    }
    const json = path.join(work, `${listener.audience}-${version}.json`);
    writeFileSync(json, JSON.stringify(served));
    redocly('bundle', json, '--remove-unused-components', '--ext', 'yaml', '-o', listener.contract);
    redocly(
      'build-docs',
      listener.contract,
      '--inlineBundle',
      '--title',
      listener.version ? `${served.info.title} ${listener.version}` : served.info.title,
      '--output',
      listener.docs,
    );
  }
  copyFileSync('dist/docs/index.html', versionReferencePath(NEWEST_VERSION));
  writeFileSync(
    changelogPath(),
    changelogPage({
      title: contract.info.title,
      versions: VERSIONS,
      changes: VERSION_CHANGES,
      operations: operationNames(contract),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
