import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
} from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import formats from 'ajv-formats';
import { dump, load } from 'js-yaml';
import type { ValidateFunction } from 'ajv';
import { type Document, OpenAPIBackend, ValidationContext } from 'openapi-backend';
import type { OpenAPIV3 } from 'openapi-types';
import { expect } from 'vitest';
import { startHaproxy } from '../../stack/haproxy.js';
import { type Config, loadConfig } from '../../src/kernel/config.js';
import { createLogger, type Logger } from '../../src/kernel/logger.js';
import { CONTRACT_PATH } from '../../src/contract/paths.js';
import { contractDocument } from '../../src/http/contract-document.js';
import type { ContractDocument } from '../../src/versions/change.js';
import { contractAt, NEWEST_VERSION, supportedVersion } from '../../src/versions/registry.js';
import { type RunningServer, startServer } from '../../src/start/http-server.js';
import type { CreatedTenant } from '../../src/tenants/service.js';
import { dropPostgresDatabase, engineEnv, queryDatabase } from './engine.js';

/**
 * openapi.yaml in openapi-backend as the tests read it: strict, every ajv error, the contract's formats.
 * `quick` compiles each operation's validators when first asked for them.
 */
export function contractBackend(quick: boolean, version: string = NEWEST_VERSION): OpenAPIBackend {
  return new OpenAPIBackend({
    // an older version's contract as the server serves it: the newest, taken down by each change since
    definition: (version === NEWEST_VERSION
      ? contractDocument()
      : contractAt(contractDocument() as ContractDocument, version)) as Document,
    strict: true,
    quick,
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => {
      formats.default(ajv);
      return ajv;
    },
  });
}

/**
 * Validates every response against openapi.yaml, so the code cannot drift from the contract. Each
 * operation's validators are compiled when a test first meets it (quick): compiling all of them up front
 * cost every test file 2.6 s. test/unit/contract.test.ts checks the whole document once, strictly.
 */
const contracts = new Map<string, Promise<OpenAPIBackend>>();
function loadContract(version: string = NEWEST_VERSION): Promise<OpenAPIBackend> {
  let contract = contracts.get(version);
  if (!contract) {
    contract = (async () => {
      const api = contractBackend(true, version);
      await api.init();
      // the judge matches as openapi-backend does, on an operation list built once (its router rebuilds the
      // list from the document twice per match)
      const operations = api.router.getOperations();
      api.router.getOperations = () => operations;
      return api;
    })();
    contracts.set(version, contract);
  }
  return contract;
}

/**
 * The version an answer is judged at: the one it says it was rendered at (`Open-Tenant-Version`, from the
 * request's header or the tenant's pin), when that is a released one; else the newest.
 */
function judgedVersion(response: ApiResponse): string {
  const said = response.headers.get('open-tenant-version');
  return said !== null && supportedVersion(said) ? said : NEWEST_VERSION;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary fields of JSON bodies
  body: any;
  text: string;
}

export interface RequestOptions {
  token?: string | null;
  json?: unknown;
  /** Raw body (sent as is, with `contentType`). */
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Harness {
  url: string;
  server: RunningServer;
  /** Every server behind `url`: `server` alone, or it and its twin behind HAProxy (the `haproxy` project). */
  servers: RunningServer[];
  dataDir: string;
  config: Config;
  tenant: CreatedTenant;
  other: CreatedTenant;
  request(method: string, route: string, options?: RequestOptions): Promise<ApiResponse>;
  /** The admin listener (ADMIN_PORT) of `server`, and an admin token the harness issued. */
  adminUrl: string;
  adminToken: string;
  /** A call to the admin API, with `adminToken` unless `token` says otherwise; judged as `request`'s are. */
  admin(method: string, route: string, options?: RequestOptions): Promise<ApiResponse>;
  /** A statement on the server's database, whichever the engine (`?` placeholders). */
  query<R>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** The contract, dereferenced, as openapi-backend reads it. */
export async function loadedContract(): Promise<OpenAPIBackend> {
  return loadContract();
}

let envelopeCheck: ValidateFunction | undefined;
/** The failing envelope is the same in every version: one validator. */
function envelopeValidator(api: OpenAPIBackend): ValidateFunction {
  const schemas = (api.definition as OpenAPIV3.Document).components?.schemas ?? {};
  envelopeCheck ??= api.validator.getAjv(ValidationContext.Response).compile(schemas.ErrorEnvelope!);
  return envelopeCheck;
}

/** Response validators by where they are used (operation, status, header), and by the schema's text. */
const checksByUse = new Map<string, ValidateFunction>();
const contractVersions = new WeakMap<OpenAPIBackend, string>();
const checksBySchema = new Map<string, ValidateFunction>();

/**
 * The validator of `schema`, compiled once per schema: most answers share a few schemas (the error envelope,
 * the rate limit headers), and openapi-backend's validateResponse compiled every status of an operation at
 * its first answer, about 1.5 s of each test file's CPU.
 */
function compiledOnce(api: OpenAPIBackend, where: string, schema: object): ValidateFunction {
  // the same operation's answer is another schema in another version
  const use = `${contractVersions.get(api) ?? NEWEST_VERSION}|${where}`;
  const known = checksByUse.get(use);
  if (known) return known;
  // the contract has no cycles (JSON.stringify would throw on one)
  const text = JSON.stringify(schema);
  const check = checksBySchema.get(text) ?? api.validator.getAjv(ValidationContext.Response).compile(schema);
  checksBySchema.set(text, check);
  checksByUse.set(use, check);
  return check;
}

/** A header's text as its schema's type reads it: integers and numbers are parsed, the rest stays text. */
function headerValue(schema: OpenAPIV3.SchemaObject, text: string): unknown {
  if (schema.type === 'integer' || schema.type === 'number')
    return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
  if (schema.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * Every header the answer's declared response names: present when `required`, and when present, valid
 * against its schema (type, pattern, bounds), as Prism judges them.
 */
function checkDeclaredHeaders(
  api: OpenAPIBackend,
  operation: { operationId?: string; responses?: unknown },
  response: ApiResponse,
): void {
  const responses = operation.responses as OpenAPIV3.ResponsesObject | undefined;
  const declared = (responses?.[String(response.status)] ?? responses?.default) as
    OpenAPIV3.ResponseObject | undefined;
  for (const [name, header] of Object.entries(declared?.headers ?? {}) as [
    string,
    OpenAPIV3.HeaderObject,
  ][]) {
    const where = `${operation.operationId} ${response.status} header ${name}`;
    const text = response.headers.get(name);
    if (text === null) {
      expect(header.required ?? false, `${where} is required`).toBe(false);
      continue;
    }
    const schema = header.schema as OpenAPIV3.SchemaObject;
    const check = compiledOnce(api, `${operation.operationId}|${response.status}|${name}`, schema);
    check(headerValue(schema, text));
    expect(check.errors ?? [], `${where}: ${text}`).toEqual([]);
  }
}

/** Whether a listener of `audience` serves the operation: its `x-audience`, else tenants' unless it takes no token. */
function servedTo(audience: 'tenant' | 'admin', operation: { security?: unknown[] }): boolean {
  const declared = (operation as { 'x-audience'?: string })['x-audience'];
  if (declared !== undefined) return declared === audience;
  return operation.security?.length === 0 || audience === 'tenant';
}

async function checkAgainstContract(
  method: string,
  route: string,
  response: ApiResponse,
  audience: 'tenant' | 'admin' = 'tenant',
): Promise<void> {
  const version = judgedVersion(response);
  const api = await loadContract(version);
  contractVersions.set(api, version);
  const pathOnly = route.split('?')[0]!;
  const matched = api.router.matchOperation({ method, path: pathOnly, headers: {} });
  // another listener's operation does not exist here: its answer is an unknown route's
  const operation = matched && servedTo(audience, matched) ? matched : undefined;
  const isJson = (response.headers.get('content-type') ?? '').startsWith('application/json');
  if (response.status >= 400) {
    expect(isJson, `${method} ${route} -> ${response.status} is JSON`).toBe(true);
    expect(response.body.code).toBe(response.status);
    expect(response.headers.get('x-request-id')).toBe(response.body.request_id);
  }
  if (!operation) {
    // an unknown route or method still answers the contract's failing envelope, with one of its codes
    const check = envelopeValidator(api);
    check(response.body);
    expect(check.errors ?? [], `${method} ${route} -> ${response.status}: ${response.text}`).toEqual([]);
    return;
  }
  const declared = Object.keys(operation.responses ?? {});
  expect(declared, `${operation.operationId} declares status ${response.status}`).toContain(
    String(response.status),
  );
  checkDeclaredHeaders(api, operation, response);
  // the declared status's JSON schema, as openapi-backend's validateResponse picks it
  const declaredResponse = (operation.responses as OpenAPIV3.ResponsesObject)[String(response.status)] as
    OpenAPIV3.ResponseObject | undefined;
  const schema = declaredResponse?.content?.['application/json']?.schema;
  if (isJson && schema) {
    const check = compiledOnce(api, `${operation.operationId}|${response.status}`, schema);
    check(response.body);
    expect(
      check.errors ?? [],
      `${operation.operationId} ${response.status}: ${response.text.slice(0, 500)}`,
    ).toEqual([]);
  }
}

/**
 * `npm run judge:prism`: every harness is behind Stoplight Prism in proxy mode (PRISM_BIN), which checks each
 * answer, headers included, against the contract and says what it found in `sl-violations`.
 */
export const throughPrism = process.env.TEST_THROUGH_PRISM === 'true';

type Judge = { url: string; close(): Promise<void> };

/**
 * The contract as Prism must read it to judge by it. Prism (5.14) turns `nullable: true` into a null in
 * `enum`, so an enum that already lists null (as OpenAPI 3.0.3 asks: `error_code`, `color_space`) gets it
 * twice, ajv refuses the schema, and Prism then passes every answer of that operation unjudged: the runs',
 * the events' answers. Without the written null, Prism's schema is the contract's.
 */
function contractForPrism(text: string): string {
  const unlistNull = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(unlistNull);
    if (node === null || typeof node !== 'object') return;
    const schema = node as { nullable?: unknown; enum?: unknown[] };
    if (schema.nullable === true && Array.isArray(schema.enum))
      schema.enum = schema.enum.filter((value) => value !== null);
    Object.values(node).forEach(unlistNull);
  };
  const document = load(text);
  unlistNull(document);
  return dump(document, { lineWidth: -1, noRefs: true });
}

/** Prism in proxy mode in front of `upstream`, judging by `contract` (its text); logs `prism-<label>-<port>.log`. */
async function behindPrism(upstream: string, contract: string, label: string): Promise<Judge> {
  const bin = process.env.PRISM_BIN;
  if (!bin) throw new Error('TEST_THROUGH_PRISM needs PRISM_BIN (npm run judge:prism sets it)');
  const port = await freePort();
  const logDir = process.env.PRISM_LOG_DIR ?? tmpdir();
  const log = openSync(path.join(logDir, `prism-${label}-${port}.log`), 'a');
  // a copy of its own: Prism restarts, dropping what it was answering, when its contract file changes
  const contractDir = mkdtempSync(path.join(tmpdir(), 'prism-contract-'));
  const contractFile = path.join(contractDir, `${label}.yaml`);
  writeFileSync(contractFile, contractForPrism(contract));
  const child = spawn(
    bin,
    ['proxy', contractFile, upstream, '--host', '127.0.0.1', '--port', String(port), '--errors=false'],
    { stdio: ['ignore', log, log] },
  );
  // Prism listens once it has read the contract; a request through it would reach `upstream`, which may be
  // the versioned judge waiting for this very Prism
  const deadline = Date.now() + 30_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('prism did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closeSync(log);
        const done = () => {
          rmSync(contractDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One HTTP exchange, bytes as they are (no decoding, no added headers); the answer's body unread. */
function exchange(
  base: string,
  incoming: { method?: string; url?: string; headers: IncomingHttpHeaders },
  body: Buffer,
  headers: IncomingHttpHeaders = {},
): Promise<IncomingMessage> {
  const { host: _host, ...sent } = incoming.headers;
  return new Promise((resolve, reject) => {
    const out = httpRequest(new URL(incoming.url ?? '/', base), {
      method: incoming.method,
      headers: { ...sent, ...headers },
    });
    out.once('response', resolve).once('error', reject);
    out.end(body);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An answer's headers for a body sent whole: its length, no chunking, no connection's own headers. */
function wholeBody(answer: Answer): IncomingHttpHeaders {
  const {
    'transfer-encoding': _chunked,
    connection: _connection,
    'keep-alive': _keepAlive,
    ...rest
  } = answer.headers;
  return { ...rest, 'content-length': String(answer.body.length) };
}

/**
 * The public listener behind one Prism per version, each judging by its version's contract as the server
 * serves it (`/openapi.yaml?version=`), so that an answer is judged at the version it says it was rendered at
 * (`Open-Tenant-Version`: the request's header, else the tenant's pin), as checkAgainstContract does. That
 * version is known only from the answer: the judge sends each request to the server, then the same request
 * through the Prism of the answer's version, whose upstream is this judge replaying the recorded answer
 * (`x-judged-answer` names it). The caller gets the server's own answer and Prism's `sl-violations`.
 * An event stream passes unjudged: it never ends, and Prism answers only once its upstream has.
 */
async function behindVersionedPrism(upstream: string): Promise<Judge> {
  const logDir = process.env.PRISM_LOG_DIR ?? tmpdir();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const routing = openSync(path.join(logDir, `router-${port}.log`), 'a');
  const note = (line: string) => appendFileSync(routing, `${line}\n`);
  const recorded = new Map<string, Answer>();
  const judges = new Map<string, Promise<Judge>>();
  // an older version's is started on first need: most suites answer at the newest version only
  const judgeAt = (version: string): Promise<Judge> => {
    let judge = judges.get(version);
    if (!judge) {
      judge = (async () => {
        const served = await fetch(`${upstream}/openapi.yaml?version=${version}`);
        if (!served.ok) throw new Error(`the contract of ${version}: ${served.status}`);
        return behindPrism(url, await served.text(), version);
      })();
      judges.set(version, judge);
    }
    return judge;
  };
  const judged = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const replay = req.headers['x-judged-answer'];
    if (typeof replay === 'string') {
      const answer = recorded.get(replay);
      recorded.delete(replay);
      if (!answer) throw new Error(`no recorded answer ${replay}`);
      res.writeHead(answer.status, wholeBody(answer)).end(answer.body);
      return;
    }
    const body = await readAll(req);
    const reply = await exchange(upstream, req, body);
    const where = `${req.method} ${req.url} -> ${reply.statusCode}`;
    if ((reply.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      note(`unjudged stream ${where}`);
      res.once('close', () => reply.destroy());
      res.writeHead(reply.statusCode!, reply.headers);
      reply.pipe(res);
      return;
    }
    const answer: Answer = { status: reply.statusCode!, headers: reply.headers, body: await readAll(reply) };
    const said = answer.headers['open-tenant-version'];
    const version = (typeof said === 'string' && supportedVersion(said)) || NEWEST_VERSION;
    const id = randomUUID();
    recorded.set(id, answer);
    const verdict = await exchange((await judgeAt(version)).url, req, body, { 'x-judged-answer': id });
    await readAll(verdict);
    // Prism answered without asking its upstream (it refused the request): the answer went unjudged
    note(`${recorded.delete(id) ? 'unjudged by prism' : `judged at ${version}`} ${where}`);
    const violations = verdict.headers['sl-violations'];
    res
      .writeHead(answer.status, {
        ...wholeBody(answer),
        ...(violations ? { 'sl-violations': violations } : {}),
      })
      .end(answer.body);
  };
  const router = createHttpServer((req, res) => {
    judged(req, res).catch((error: unknown) => {
      note(`failed ${req.method} ${req.url}: ${String(error)}`);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the versioned Prism judge failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => router.listen(port, '127.0.0.1', resolve));
  // the newest is the one every suite answers at: started now, out of any test's timing
  await judgeAt(NEWEST_VERSION);
  return {
    url,
    async close() {
      await Promise.all([...judges.values()].map(async (judge) => (await judge).close()));
      router.closeAllConnections();
      await new Promise((resolve) => router.close(resolve));
      closeSync(routing);
    },
  };
}

/** What Prism found wrong with an answer (its request findings are the tests' bad requests, on purpose). */
function responseViolations(headers: Headers): unknown[] {
  const found = headers.get('sl-violations');
  if (!found) return [];
  return (JSON.parse(found) as { location: string[] }[]).filter((v) => v.location[0] === 'response');
}

/** The `haproxy` project: every harness is two servers behind HAProxy. */
export const throughHaproxy = process.env.TEST_THROUGH_HAPROXY === 'true';

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A second server process's twin in this process, and HAProxy round-robin over both. */
async function behindHaproxy(first: RunningServer, config: Config, logger: Logger) {
  // metrics are per process: the twin serves none (the first one's METRICS_PORT is taken)
  const second = await startServer({ ...config, metricsPort: 0 }, logger);
  const dir = mkdtempSync(path.join(tmpdir(), 'ota-haproxy-'));
  // Both servers share this test process's event loop, which stalls for a second or two while a suite
  // starts another harness (two servers' validators, their parser threads) or builds a large fixture: a
  // check then waits, it does not fail. A dead server still drops out at once (its connection is refused).
  const proxy = await startHaproxy(
    dir,
    await freePort(),
    [first, second].map((server, i) => ({ name: `api${i + 1}`, port: Number(new URL(server.url).port) })),
    undefined,
    10_000,
  );
  return {
    url: proxy.url,
    second,
    async close() {
      await proxy.stop();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startHarness(
  env: Record<string, string> = {},
  options: { logger?: Logger } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ota-test-'));
  const database = await engineEnv();
  const config = loadConfig({
    ...database,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO_TENANT: 'false',
    // one parser thread: a suite that needs more says so
    PARSER_THREADS: '1',
    // a suite meets a few operations: each compiles its validators when first asked
    VALIDATORS_AT_START: 'false',
    METRICS_PORT: '0',
    // every harness has the platform's admin listener, on a free port
    ADMIN_PORT: '0',
    // the limiter runs in every suite, far above what a suite sends; the retries suite sets its own
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
    RATE_LIMIT_ANONYMOUS_PER_SECOND: '1000000',
    RATE_LIMIT_ANONYMOUS_BURST: '1000000',
    // behind HAProxy, the client's address is its X-Forwarded-For
    ...(throughHaproxy ? { TRUST_PROXY: '127.0.0.1' } : {}),
    ...env,
  });
  const logger = options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const server = await startServer(config, logger);
  // the `haproxy` project: the same suites through HAProxy, in front of this server and a second one on the
  // same database and blobs
  const proxied = throughHaproxy ? await behindHaproxy(server, config, logger) : undefined;
  // the public listener is judged by the contract it serves (without the admin operations), the admin one by
  // the whole contract
  const prism = throughPrism ? await behindVersionedPrism(proxied?.url ?? server.url) : undefined;
  const adminPrism = throughPrism
    ? await behindPrism(server.adminUrl!, readFileSync(CONTRACT_PATH, 'utf8'), 'admin')
    : undefined;
  const url = prism?.url ?? proxied?.url ?? server.url;
  const tenant = await server.services.tenants.create('acme');
  const other = await server.services.tenants.create('globex');
  const admin = await server.services.adminTokens.issue('harness');
  const caller =
    (
      audience: 'tenant' | 'admin',
      direct: string,
      judged: { url: string } | undefined,
      defaultToken: string,
    ) =>
    async (method: string, route: string, options: RequestOptions = {}): Promise<ApiResponse> => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const token = options.token === undefined ? defaultToken : options.token;
      if (token !== null) headers.authorization = `Bearer ${token}`;
      let body: string | Uint8Array | undefined = options.body;
      if (options.json !== undefined) {
        body = JSON.stringify(options.json);
        headers['content-type'] = 'application/json';
      }
      if (options.contentType) headers['content-type'] = options.contentType;
      // Prism's proxy re-encodes a binary body as text (a PDF part arrives longer than sent): bytes go
      // around it, straight to the server, and only their answers miss Prism's judgement
      const base = judged && !(body instanceof Uint8Array) ? judged.url : direct;
      const res = await fetch(`${base}${route}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const response = { status: res.status, headers: res.headers, body: parsed, text };
      if (judged) expect(responseViolations(res.headers), `Prism on ${method} ${route}`).toEqual([]);
      await checkAgainstContract(method, route, response, audience);
      return response;
    };
  const request = caller('tenant', proxied?.url ?? server.url, prism, tenant.token);
  return {
    url,
    server,
    servers: proxied ? [server, proxied.second] : [server],
    dataDir,
    config,
    tenant,
    other,
    request,
    adminUrl: server.adminUrl!,
    adminToken: admin.token,
    admin: caller('admin', server.adminUrl!, adminPrism, admin.token),
    query: (sql, params) => queryDatabase(dataDir, database.DATABASE_URL, sql, params),
    async close() {
      await prism?.close();
      await adminPrism?.close();
      await proxied?.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (database.DATABASE_URL) await dropPostgresDatabase(database.DATABASE_URL);
    },
  };
}
