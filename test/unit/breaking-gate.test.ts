/**
 * The breaking-change gate (scripts/check-breaking.mts): one contract pair per kind of break, each of which
 * must be reported, and one per kind of additive change, each of which must pass. Every pair under
 * test/fixtures/breaking is one change to the same small contract (envelopes by `allOf`, `$ref`s,
 * `nullable`, `additionalProperties: false`, an `anyOf`), so `diff old.yaml new.yaml` shows what it tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { findBreaks } from '../../scripts/contract-diff/diff.js';
import { BREAK_KINDS, type BreakKind, type Json } from '../../scripts/contract-diff/document.js';
import {
  describeBreak,
  judgeVersion,
  readExceptions,
  unusedExceptions,
} from '../../scripts/contract-diff/gate.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/breaking');
const readYaml = (file: string) => load(readFileSync(file, 'utf8')) as Json;
const pair = (name: string) => ({
  before: readYaml(path.join(FIXTURES, name, 'old.yaml')),
  after: readYaml(path.join(FIXTURES, name, 'new.yaml')),
});
const pairsIn = (folder: string) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'additive')
    .map((entry) => entry.name)
    .sort();

/** Each break pair: the kind it must be reported as, and one place it must be reported at. */
const BREAKS: Record<string, { kind: BreakKind; location: string }> = {
  'operation-removed': { kind: 'operation removed', location: 'GET /things/{thing_id}' },
  'response-property-removed': { kind: 'response property removed', location: 'GET /things 200 data[].size' },
  'response-property-renamed': {
    kind: 'response property removed',
    location: 'GET /things/{thing_id} 200 data.name',
  },
  'response-property-removed-from-a-branch': {
    kind: 'response property removed',
    location: 'POST /things 201 data.owner.email',
  },
  'response-property-made-optional': {
    kind: 'response property made optional',
    location: 'GET /things 200 data[].note',
  },
  'required-request-property-added': {
    kind: 'required request property added',
    location: 'POST /things request color',
  },
  'request-property-made-required': {
    kind: 'request property made required',
    location: 'POST /things request label',
  },
  'request-property-removed': { kind: 'request property removed', location: 'POST /things request label' },
  'required-parameter-added': { kind: 'required parameter added', location: 'GET /things query cursor' },
  'parameter-made-required': { kind: 'parameter made required', location: 'GET /things query limit' },
  'parameter-removed': { kind: 'parameter removed', location: 'GET /things query status' },
  'required-request-body-added': { kind: 'required request body added', location: 'POST /things request' },
  'request-body-made-required': { kind: 'request body made required', location: 'POST /things request' },
  'request-media-type-removed': {
    kind: 'request media type removed',
    location: 'POST /things request application/x-www-form-urlencoded',
  },
  'request-type-changed': { kind: 'type changed', location: 'POST /things request size' },
  'request-made-non-nullable': { kind: 'type changed', location: 'POST /things request note' },
  'response-type-changed': { kind: 'type changed', location: 'GET /things/{thing_id} 200 data.size' },
  'response-made-nullable': { kind: 'type changed', location: 'GET /things 200 data[].name' },
  'request-enum-value-removed': { kind: 'enum value removed', location: 'POST /things request status' },
  'pattern-added': { kind: 'validation tightened', location: 'POST /things request name' },
  'pattern-changed': { kind: 'validation tightened', location: 'POST /things request label' },
  'max-length-lowered': { kind: 'validation tightened', location: 'POST /things request name' },
  'min-length-raised': { kind: 'validation tightened', location: 'POST /things request name' },
  'minimum-raised': { kind: 'validation tightened', location: 'POST /things request size' },
  'maximum-lowered': { kind: 'validation tightened', location: 'POST /things request size' },
  'format-added': { kind: 'validation tightened', location: 'POST /things request starts_at' },
  'parameter-maximum-lowered': { kind: 'validation tightened', location: 'GET /things query limit' },
  'success-status-removed': { kind: 'success status removed', location: 'POST /things 201' },
  'success-media-type-removed': {
    kind: 'success response media type removed',
    location: 'GET /things 200 text/csv',
  },
  'security-added': { kind: 'security tightened', location: 'GET /healthz' },
  'scope-added': { kind: 'scope tightened', location: 'GET /things/{thing_id}' },
  'scope-changed': { kind: 'scope tightened', location: 'GET /things' },
  'response-header-removed': {
    kind: 'response header removed',
    location: 'GET /things 200 header RateLimit',
  },
};

describe('the breaking-change gate', () => {
  it.each(Object.entries(BREAKS))('reports %s', (name, expected) => {
    const { before, after } = pair(name);
    const breaks = findBreaks(before, after);
    expect(breaks.map(({ kind, location }) => ({ kind, location }))).toContainEqual(expected);
    // the one change is reported as its kind and nothing else
    expect(new Set(breaks.map((found) => found.kind))).toEqual(new Set([expected.kind]));
  });

  it('has a pair for every fixture folder and every kind of break', () => {
    expect(pairsIn(FIXTURES)).toEqual(Object.keys(BREAKS).sort());
    expect(new Set(Object.values(BREAKS).map((expected) => expected.kind))).toEqual(new Set(BREAK_KINDS));
  });

  const additive = pairsIn(path.join(FIXTURES, 'additive'));
  it.each(additive)('passes the additive change %s', (name) => {
    const { before, after } = pair(path.join('additive', name));
    expect(findBreaks(before, after)).toEqual([]);
  });

  it('passes the additive changes the gate promises', () => {
    expect(additive).toEqual(
      expect.arrayContaining([
        'new-optional-request-property',
        'new-response-property',
        'new-operation',
        'new-optional-parameter',
        'new-enum-value-in-response',
        'loosened-max-length',
      ]),
    );
  });

  it('finds nothing between openapi.yaml and itself, in seconds', () => {
    const contract = readYaml(path.resolve(import.meta.dirname, '../../openapi.yaml'));
    const started = performance.now();
    expect(findBreaks(contract, structuredClone(contract))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('reads a renamed path parameter and a header in another case as the same', () => {
    const { before } = pair('response-header-removed');
    const after = structuredClone(before);
    const paths = after.paths as Record<string, Json>;
    paths['/things/{id}'] = paths['/things/{thing_id}']!;
    delete paths['/things/{thing_id}'];
    (paths['/things/{id}']!.parameters as Json[])[0]!.name = 'id';
    const list = (paths['/things']!.get as Json).responses as Record<string, Json>;
    list['200']!.headers = { ratelimit: { $ref: '#/components/headers/RateLimit' } };
    expect(findBreaks(before, after)).toEqual([]);
  });

  it('compares inline anyOf branches in order, and takes one more as additive', () => {
    const { before } = pair('response-property-removed');
    const withInlineOwner = (branches: Json[]) => {
      const contract = structuredClone(before);
      const schemas = (contract.components as { schemas: Record<string, { properties: Json }> }).schemas;
      schemas.Thing!.properties.owner = { anyOf: branches };
      return contract;
    };
    const person = { type: 'object', properties: { email: { type: 'string' } } };
    const robot = { type: 'object', properties: { serial: { type: 'string' } } };
    const old = withInlineOwner([person, robot]);
    const emailGone = withInlineOwner([{ type: 'object', properties: {} }, robot]);
    expect(findBreaks(old, emailGone).map((found) => found.location)).toContain(
      'GET /things/{thing_id} 200 data.owner.email',
    );
    expect(findBreaks(old, withInlineOwner([person, robot, { type: 'string' }]))).toEqual([]);
  });

  it('follows a recursive schema without looping, and reports a break inside it', () => {
    const contract = (leaf: Json): Json => ({
      openapi: '3.0.3',
      paths: {
        '/tree': {
          get: {
            security: [],
            responses: {
              '200': {
                description: 'A tree.',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              ...leaf,
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      },
    });
    const breaks = findBreaks(contract({ name: { type: 'string' } }), contract({}));
    expect(breaks.map((found) => found.location)).toEqual(['GET /tree 200 name']);
  });
});

describe('judging a released version', () => {
  const { before: released, after: served } = pair('response-property-removed');

  it('fails on a break, and passes once a version change takes it back down', () => {
    expect(judgeVersion('2026-11-29', released, served, []).breaks).not.toEqual([]);
    // what a VersionChange's downContract does for the versions before it: the old shape, back
    const derived = structuredClone(served);
    const thing = (derived.components as { schemas: Record<string, { properties: Json }> }).schemas.Thing!;
    thing.properties.size = { type: 'integer' };
    expect(judgeVersion('2026-11-29', released, derived, []).breaks).toEqual([]);
  });

  it('prints a break as one line naming the version, the kind and the place', () => {
    const [first] = judgeVersion('2026-11-29', released, served, []).breaks;
    expect(describeBreak('2026-11-29', first!)).toBe(
      '2026-11-29: response property removed: GET /things 200 data[].size (removed or renamed)',
    );
  });

  it('lets a break through only with an exception for its version, kind and place', () => {
    const exceptions = readExceptions([
      {
        version: '2026-11-29',
        kind: 'response property removed',
        location: '* data*.size',
        reason: 'never sent by any server',
      },
      { version: '2026-11-29', kind: 'operation removed', location: 'GET /things', reason: 'not needed now' },
    ]);
    const verdict = judgeVersion('2026-11-29', released, served, exceptions);
    expect(verdict.breaks).toEqual([]);
    expect(verdict.excused).toHaveLength(3);
    expect(unusedExceptions(exceptions, [verdict])).toEqual([exceptions[1]]);
    expect(judgeVersion('2026-12-01', released, served, exceptions).breaks).toHaveLength(3);
  });

  it('refuses an exception without a reason, or of a kind it does not know', () => {
    const entry = { version: '2026-11-29', kind: 'operation removed', location: 'GET /things' };
    expect(() => readExceptions([entry])).toThrow(/no reason/);
    expect(() => readExceptions([{ ...entry, reason: '  ' }])).toThrow(/no reason/);
    expect(() => readExceptions([{ ...entry, kind: 'renamed', reason: 'why' }])).toThrow(/unknown kind/);
    expect(readExceptions(null)).toEqual([]);
    expect(
      readExceptions(
        load(readFileSync(path.resolve(FIXTURES, '../../../contract/breaking-exceptions.yaml'), 'utf8')),
      ),
    ).toEqual(expect.any(Array));
  });
});
