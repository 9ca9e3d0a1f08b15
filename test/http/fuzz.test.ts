import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, sendUpload, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, loadedContract, startHarness } from '../helpers/harness.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * A spec-driven fuzzer: reads openapi.yaml and sends thousands of mutated requests to every operation
 * (wrong types, boundary, huge, float, exponent and hex numbers, bad percent-escapes, duplicated keys,
 * extra fields, missing and wrong content types, chunked and empty bodies, wrong methods, another
 * tenant's ids). Every answer must be below 500, in the JSON envelope, and a status the operation
 * declares (405 and 404 for methods and paths the contract does not have, as its description says).
 * Every mutation of every operation is sent once per round, three rounds (the second as another tenant):
 * `npm run test:fuzz` sends them all (FUZZ_BUDGET=all). `npm test` sends FUZZ_BUDGET of them, drawn with the fixed FUZZ_SEED,
 * so that a failure found there is found again by the same run.
 */
const BUDGET = process.env.FUZZ_BUDGET === 'all' ? Infinity : Number(process.env.FUZZ_BUDGET ?? 1600);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const ROUNDS = 3;

/** mulberry32: a small seeded generator, so that the drawn sample is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` of `items` (all when it is larger), in an order drawn from `seed`. */
function sample<T>(items: T[], count: number, seed: number): T[] {
  const random = seeded(seed);
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  return shuffled.slice(0, count);
}

interface Operation {
  id: string;
  /** the platform's operations are sent to the admin listener */
  admin: boolean;
  method: string;
  path: string;
  parameters: { name: string; in: string; schema: { type?: string; enum?: string[] } }[];
  bodySchema?: { properties?: Record<string, { type?: string; enum?: string[] }>; required?: string[] };
  statuses: Set<string>;
}

const NUMBERS = [
  '',
  '0',
  '1',
  '-1',
  '1.5',
  '1e3',
  '1E2',
  '0x10',
  '0b1',
  '0o7',
  'Infinity',
  '-Infinity',
  'NaN',
  '9007199254740993',
  '9223372036854775808',
  '1e300',
  ' 7 ',
  '+3',
  '00012',
];
const STRINGS = [
  '',
  'abc',
  'a'.repeat(65),
  'a'.repeat(5000),
  '%zz',
  '%',
  '%E0%A4%A',
  '%00',
  'é',
  '😀',
  '..%2F..',
  "'; DROP",
];
const JSON_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e300,
  Number('9007199254740993'), // past 2^53: JSON carries it, JS reads it rounded
  '',
  'x',
  'a'.repeat(300),
  [],
  {},
  [1, 2],
  { nested: true },
];

let h: Harness;
let operations: Operation[];
const ids: Record<string, string> = {};

beforeAll(async () => {
  h = await startHarness({ PARSER_THREADS: '1' });
  const api = await loadedContract();
  operations = api.router.getOperations().map((op) => ({
    id: op.operationId!,
    admin: (op as { 'x-audience'?: string })['x-audience'] === 'admin',
    method: op.method.toUpperCase(),
    path: op.path,
    parameters: (op.parameters ?? []) as Operation['parameters'],
    bodySchema: (
      op.requestBody as { content?: Record<string, { schema?: Operation['bodySchema'] }> } | undefined
    )?.content?.['application/json']?.schema,
    statuses: new Set(Object.keys(op.responses ?? {})),
  }));
  // real objects of both tenants, so that mutations also reach the domain and not only validation
  const fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
  const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
  await waitForRun(h, run.id);
  const pending = await sendUpload(h, readPdf('real/cups-filters__classified.pdf'));
  const theirFile = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
    token: h.other.token,
  });
  const theirRun = (
    await h.request('POST', '/api/open/runs', { json: { file_id: theirFile }, token: h.other.token })
  ).body.data;
  // the admin operations change a tenant of their own: suspending or revoking the harness's tenant would
  // turn every later request of the fuzz into a 403 or a 401
  const fuzzed = await h.server.services.tenants.create('fuzzed');
  Object.assign(ids, {
    tenant_id: fuzzed.tenant_id,
    token_id: fuzzed.token_id,
    file_id: fileId,
    run_id: run.id,
    upload_id: pending.upload_id,
    foreign_file_id: theirFile,
    foreign_run_id: theirRun.id,
  });
});
afterAll(() => h.close());

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1');
}

function validPathValues(op: Operation): Record<string, string> {
  const values: Record<string, string> = {};
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    if (p.name === 'part_number') values[p.name] = '1';
    else if (p.schema.enum) values[p.name] = p.schema.enum[0]!;
    else values[p.name] = ids[p.name] ?? ids.run_id!;
  }
  return values;
}

function* mutations(op: Operation): Generator<Sent> {
  const pathValues = validPathValues(op);
  const base = fill(op.path, pathValues);
  const json = { 'content-type': 'application/json' };
  // path parameters: every bad value, and another tenant's ids
  for (const p of op.parameters.filter((p) => p.in === 'path')) {
    for (const value of [...NUMBERS, ...STRINGS, ids.foreign_run_id!, ids.foreign_file_id!]) {
      yield { method: op.method, path: fill(op.path, { ...pathValues, [p.name]: value }) };
    }
  }
  // query parameters: every bad value, duplicated, with an unknown key beside
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    for (const value of [...NUMBERS, ...STRINGS, ...(p.schema.enum ?? [])]) {
      const encoded = value.startsWith('%') ? value : encodeURIComponent(value);
      yield { method: op.method, path: `${base}?${p.name}=${encoded}` };
      yield { method: op.method, path: `${base}?${p.name}=${encoded}&${p.name}=1&unknown=${encoded}` };
    }
  }
  // bodies
  if (op.bodySchema) {
    const props = op.bodySchema.properties ?? {};
    const valid: Record<string, unknown> = {};
    for (const [name, schema] of Object.entries(props)) {
      valid[name] =
        name === 'file_id'
          ? ids.file_id
          : name === 'upload_id'
            ? ids.upload_id
            : (schema.enum?.[0] ?? (schema.type === 'integer' ? 1000 : 'doc.pdf'));
    }
    for (const [name] of Object.entries(props)) {
      for (const value of JSON_VALUES)
        yield {
          method: op.method,
          path: base,
          headers: json,
          body: JSON.stringify({ ...valid, [name]: value }),
        };
      const { [name]: _dropped, ...without } = valid;
      yield { method: op.method, path: base, headers: json, body: JSON.stringify(without) };
      yield {
        method: op.method,
        path: base,
        headers: json,
        body: JSON.stringify({ ...valid, [name]: ids.foreign_file_id }),
      };
    }
    for (const body of [
      '',
      '{',
      '[]',
      'null',
      '"x"',
      '{"a":1,}',
      JSON.stringify({ ...valid, extra: 1 }),
      '{"file_id":"\u0000"}',
    ]) {
      yield { method: op.method, path: base, headers: json, body };
      yield { method: op.method, path: base, headers: json, body, chunked: true };
    }
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      '',
    ]) {
      yield {
        method: op.method,
        path: base,
        headers: contentType ? { 'content-type': contentType } : {},
        body: JSON.stringify(valid),
      };
    }
    yield { method: op.method, path: base, headers: json, body: `{"pad":"${'a'.repeat(70_000)}"}` };
  }
  if (op.id === 'uploadPart') {
    for (const contentType of ['application/pdf', 'application/octet-stream', 'text/plain', '']) {
      for (const size of [0, 1, 100, 979, 980, 5000]) {
        const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
        yield { method: op.method, path: base, headers, body: Buffer.alloc(size, 0x25) };
        yield { method: op.method, path: base, headers, body: Buffer.alloc(size, 0x25), chunked: true };
      }
    }
  }
  // wrong methods on the operation's path
  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
    yield { method, path: base };
  }
}

describe('spec-driven fuzzing', () => {
  it('thousands of mutated requests: no 5xx, always the envelope, only declared statuses', async () => {
    const api = await loadedContract();
    const started = Date.now();
    let sent = 0;
    const problems: string[] = [];
    const tally = { fiveXX: 0, notEnvelope: 0, undeclared: 0 };
    const statuses: Record<number, number> = {};
    const every = Array.from({ length: ROUNDS }, (_, round) =>
      operations.flatMap((op) => [...mutations(op)].map((m) => ({ round, op, m }))),
    ).flat();
    // the same tenant created twice: whatever the sample, one conflict is among the answers (409)
    const createTenant = operations.find((op) => op.id === 'adminCreateTenant')!;
    const twice: Sent = {
      method: 'POST',
      path: createTenant.path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'fuzzed-twice' }),
    };
    const anchors = [0, 0].map((round) => ({ round, op: createTenant, m: twice }));
    const cases = [...anchors, ...(BUDGET >= every.length ? every : sample(every, BUDGET, SEED))];
    for (const { round, op, m } of cases) {
      sent++;
      // round 1: another tenant's token (on the admin listener, a tenant's token: refused there)
      const token = op.admin
        ? round === 1
          ? h.tenant.token
          : h.adminToken
        : round === 1
          ? h.other.token
          : h.tenant.token;
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(m.headers ?? {}) };
      if (m.body !== undefined && !m.chunked) headers['content-length'] = String(Buffer.byteLength(m.body));
      const body = m.body === undefined ? undefined : Buffer.from(m.body);
      const res = await rawRequest(op.admin ? h.adminUrl : h.url, m.method, m.path, {
        headers,
        chunks: body === undefined ? [] : m.chunked ? [body.subarray(0, 1), body.subarray(1)] : [body],
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const what = `${m.method} ${m.path.slice(0, 120)} ${String(m.body ?? '').slice(0, 60)} -> ${res.status}`;
      if (res.status >= 500) {
        tally.fiveXX++;
        problems.push(`5xx: ${what} ${res.text.slice(0, 200)}`);
      }
      const isFile =
        m.method === 'GET' && res.status === 200 && ['downloadRunFile', 'streamEvents'].includes(op.id);
      const envelopeOk =
        m.method === 'HEAD' ||
        isFile ||
        (res.body !== undefined &&
          typeof res.body === 'object' &&
          res.body !== null &&
          (res.status < 300
            ? res.body.code === 0
            : res.body.code === res.status && res.body.data === null && typeof res.body.error === 'string'));
      if (!envelopeOk) {
        tally.notEnvelope++;
        problems.push(`not the envelope: ${what} ${res.text.slice(0, 200)}`);
      }
      const pathOnly = m.path.split('?')[0]!;
      const matched = api.router.matchOperation({
        method: m.method === 'HEAD' ? 'get' : m.method.toLowerCase(),
        path: pathOnly,
        headers: {},
      });
      const declared = matched
        ? Object.keys(matched.responses ?? {}).includes(String(res.status))
        : // a method the path lacks, or a path the contract lacks: documented globally
          res.status === 405 || res.status === 404;
      if (!declared) {
        tally.undeclared++;
        problems.push(`undeclared: ${what} (${matched?.operationId ?? 'no operation'})`);
      }
    }
    console.log(
      `fuzz: ${sent} of ${every.length} requests (seed ${SEED}) in ${Date.now() - started} ms: ${JSON.stringify(tally)}, statuses ${JSON.stringify(statuses)}`,
    );
    // the mutations reach past validation too: successes, conflicts and not-founds, not only 422s
    for (const status of [200, 201, 404, 405, 409, 413, 415, 422])
      expect(statuses[status], String(status)).toBeGreaterThan(0);
    expect(every.length).toBeGreaterThan(2000);
    expect(sent).toBe(anchors.length + Math.min(BUDGET, every.length));
    expect(problems.slice(0, 20)).toEqual([]);
  });
});
