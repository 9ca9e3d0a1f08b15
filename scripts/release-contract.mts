/**
 * Keeps a released version's contract as it is released, for the breaking-change gate and the docs:
 *
 *   npm run release:contract -- 2026-12-01
 *
 * writes `contract/versions/2026-12-01.yaml`: the newest contract rewritten down to that version
 * (`contractAt`), which for the newest version is openapi.yaml itself, copied as it is so that the
 * snapshot reads (and diffs) like the source. The version must be in src/versions/registry.ts's VERSIONS,
 * and a snapshot once written is never replaced: a released contract is a promise, and the gate judges
 * every later contract against it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { dump, load } from 'js-yaml';
import { contractAt, NEWEST_VERSION, VERSIONS } from '../src/versions/registry.js';

const root = path.resolve(import.meta.dirname, '..');
const version = process.argv[2];
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};

if (version === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(version))
  fail('usage: npm run release:contract -- <YYYY-MM-DD>');
const released = version!;
if (!VERSIONS.some((entry) => entry.version === released))
  fail(`${released} is not a version of src/versions/registry.ts (VERSIONS): add it there first`);
const snapshot = path.join(root, 'contract/versions', `${released}.yaml`);
if (existsSync(snapshot))
  fail(`${path.relative(root, snapshot)} exists: a released contract is never rewritten`);

const source = readFileSync(path.join(root, 'openapi.yaml'), 'utf8');
const newest = load(source) as Record<string, unknown>;
const contract = contractAt(newest, released);
const text =
  released === NEWEST_VERSION && isDeepStrictEqual(contract, newest)
    ? source
    : dump(contract, { lineWidth: -1, noRefs: true });
writeFileSync(snapshot, text, { flag: 'wx' });
console.log(`wrote ${path.relative(root, snapshot)} (the contract of ${released} as released)`);
