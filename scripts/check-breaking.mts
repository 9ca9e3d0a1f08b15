/**
 * The breaking-change gate (CI runs it):
 *
 *   npm run check:breaking
 *
 * Each released version's contract is kept as it was released, in `contract/versions/<version>.yaml`
 * (written by `npm run release:contract -- <version>`). The contract a version is served at is derived:
 * `openapi.yaml` (the newest) rewritten down by every version change newer than that version
 * (`contractAt`, src/versions/registry.ts). For every snapshot the gate compares the two, old = as
 * released, new = as served, and fails on any break (scripts/contract-diff: GitHub's list of breaking
 * changes) unless `contract/breaking-exceptions.yaml` allows it with a reason. So a pull request that
 * breaks the contract fails until a version change takes the break back down for older versions, and a
 * version change that does not cover its break shows up here.
 *
 * A snapshot rather than a git tag: the released contract must be readable in a shallow CI clone and in
 * the docs (each version's contract is served), and a version is released by the code (the registry), not
 * by whoever tags. The admin listener's contract is a subset of openapi.yaml (scripts/build-docs.mjs keeps
 * the admin operations), so comparing openapi.yaml covers it too.
 *
 * Hand-written rather than `openapi-diff`: that library took over 20 s per comparison of this contract, did
 * not look at parameters or security, and passed a removed response property and an added request pattern.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { contractAt, VERSIONS } from '../src/versions/registry.js';
import { describeBreak, judgeVersion, readExceptions, unusedExceptions } from './contract-diff/gate.js';
import type { Json } from './contract-diff/document.js';

const root = path.resolve(import.meta.dirname, '..');
const snapshots = path.join(root, 'contract/versions');
const exceptionsFile = path.join(root, 'contract/breaking-exceptions.yaml');
const readYaml = (file: string) => load(readFileSync(file, 'utf8')) as Json;

const newest = readYaml(path.join(root, 'openapi.yaml'));
const exceptions = existsSync(exceptionsFile)
  ? readExceptions(load(readFileSync(exceptionsFile, 'utf8')))
  : [];
const released = readdirSync(snapshots)
  .filter((name) => /^\d{4}-\d{2}-\d{2}\.yaml$/.test(name))
  .map((name) => name.slice(0, -'.yaml'.length))
  .sort();

const problems: string[] = [];
const registered = new Set(VERSIONS.map((entry) => entry.version));
for (const version of released)
  if (!registered.has(version))
    problems.push(`${version}: a contract snapshot of a version src/versions/registry.ts does not release`);
for (const { version, retired } of VERSIONS)
  if (!retired && !released.includes(version))
    problems.push(`${version}: no released contract (npm run release:contract -- ${version})`);

const verdicts = released
  .filter((version) => registered.has(version))
  .map((version) =>
    judgeVersion(
      version,
      readYaml(path.join(snapshots, `${version}.yaml`)),
      contractAt(newest, version),
      exceptions,
    ),
  );
for (const verdict of verdicts) {
  for (const found of verdict.breaks) problems.push(describeBreak(verdict.version, found));
  for (const { break: found, exception } of verdict.excused)
    console.log(`${describeBreak(verdict.version, found)}: allowed (${exception.reason.trim()})`);
  if (verdict.breaks.length === 0) console.log(`no breaking change against ${verdict.version}`);
}
for (const exception of unusedExceptions(exceptions, verdicts))
  problems.push(
    `${exception.version}: exception no longer needed (${exception.kind}: ${exception.location}): ` +
      'remove it from contract/breaking-exceptions.yaml',
  );

if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
