import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../src/contract/paths.js';
import { textPdf } from '../../../test/helpers/files.js';
import { type Harness, startHarness } from '../../../test/helpers/harness.js';
import { Webhook } from 'standardwebhooks';
import {
  createClient,
  IntegrityError,
  NetworkError,
  type OpenTenantClient,
  OtaError,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.js';
import { buildProgram } from '../src/cli.js';
import { runOta } from './helpers/run-ota.js';

/**
 * The client against the real server on a temporary DATA_DIR. A small proxy in front of it can drop a
 * connection or answer 429, to show what the client does then.
 */
const PART = 64 * 1024;
let h: Harness;
let proxy: Server;
let proxyUrl: string;
let dir: string;
/** Decides, per request through the proxy, whether to interfere. */
let interfere: (req: IncomingMessage, res: ServerResponse) => boolean = () => false;
const seen: string[] = [];
/** Connections carrying an event stream through the proxy, so that a test can drop them. */
const openStreams = new Set<import('node:net').Socket>();

beforeAll(async () => {
  h = await startHarness({ UPLOAD_PART_SIZE: String(PART), PARSER_THREADS: '1' });
  dir = mkdtempSync(path.join(tmpdir(), 'ota-client-'));
  const target = new URL(h.url);
  proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (interfere(req, res)) return;
    if (req.url?.startsWith('/api/open/events/stream')) {
      openStreams.add(req.socket);
      req.socket.once('close', () => openStreams.delete(req.socket));
    }
    const upstream = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
    // a client that goes away takes its upstream request with it (an event stream ends on the server too)
    res.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (baseUrl = proxyUrl, token = h.tenant.token): OpenTenantClient =>
  createClient({ baseUrl, token, retry: { baseDelayMs: 20 } });

describe('uploads', () => {
  it('uploads in parallel parts, completes, and checks the stored SHA-256', async () => {
    const file = path.join(dir, 'five.pdf');
    writeFileSync(file, await textPdf(40));
    const progress: number[] = [];
    const done = await client().uploadFile(file, {
      concurrency: 3,
      onProgress: (p) => progress.push(p.sentBytes),
    });
    expect(done.status).toBe('completed');
    expect(done.size_bytes).toBe(readFileSync(file).length);
    expect(progress.at(-1)).toBe(done.size_bytes);
    expect(done.page_count).toBe(40);
  });

  it('a connection dropped mid-part: the part is sent again and the upload completes', async () => {
    const file = path.join(dir, 'drop.pdf');
    writeFileSync(file, await textPdf(150));
    let dropped = 0;
    interfere = (req) => {
      if (req.method === 'PUT' && req.url?.endsWith('/parts/2') && dropped === 0) {
        dropped++;
        req.once('data', () => req.socket.destroy());
        return true;
      }
      return false;
    };
    try {
      const done = await client().uploadFile(file);
      expect(done.status).toBe('completed');
      expect(dropped).toBe(1);
    } finally {
      interfere = () => false;
    }
  });

  it('an interrupted upload resumes from GET /uploads/{id}: only the missing parts are sent', async () => {
    const file = path.join(dir, 'resume.pdf');
    writeFileSync(file, await textPdf(150));
    const size = readFileSync(file).length;
    const partCount = Math.ceil(size / PART);
    expect(partCount).toBeGreaterThan(2);
    const abort = new AbortController();
    let uploadId = '';
    await expect(
      client().uploadFile(file, {
        concurrency: 1,
        onProgress: (p) => {
          if (p.partsDone === 2) abort.abort(new Error('interrupted'));
        },
        signal: abort.signal,
      }),
    ).rejects.toThrow('interrupted');
    uploadId = seen.findLast((s) => s.includes('/parts/'))!.split('/')[4]!;
    const before = await client().getUpload(uploadId);
    expect(before.missing_parts.length).toBe(partCount - 2);
    const start = seen.length;
    const done = await client().uploadFile(file, { resumeUploadId: uploadId });
    expect(done.upload_id).toBe(uploadId);
    const puts = seen.slice(start).filter((s) => s.startsWith('PUT'));
    expect(puts).toHaveLength(partCount - 2);
  });

  it('bytes that changed since the upload started are caught: the stored SHA-256 differs', async () => {
    const file = path.join(dir, 'changed.pdf');
    writeFileSync(file, await textPdf(150));
    const abort = new AbortController();
    await client()
      .uploadFile(file, {
        concurrency: 1,
        signal: abort.signal,
        onProgress: (p) => p.partsDone === 1 && abort.abort(),
      })
      .catch(() => undefined);
    const uploadId = seen.findLast((s) => s.includes('/parts/'))!.split('/')[4]!;
    const bytes = readFileSync(file);
    bytes[100] = bytes[100]! ^ 1; // a byte of the part already sent: the server keeps the old one
    writeFileSync(file, bytes);
    const resumed = await client()
      .uploadFile(file, { resumeUploadId: uploadId })
      .catch((e: unknown) => e);
    // the server holds the old first part and the rest; the client hashed the new file whole
    expect(resumed).toBeInstanceOf(IntegrityError);
  });
});

describe('errors and retries', () => {
  it('a failure is one typed OtaError with code, error, message, request_id and detail', async () => {
    const missing = await client()
      .getRun('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OtaError);
    expect(missing).toMatchObject({ status: 404, code: 404, error: 'not_found', message: 'Run not found' });
    expect((missing as OtaError).request_id).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = (await client()
      .listRuns({ limit: 101 })
      .catch((e: unknown) => e)) as OtaError;
    expect(invalid.status).toBe(422);
    expect(invalid.detail).toEqual([
      { loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', type: 'less_than_equal' },
    ]);
    expect(invalid.describe()).toMatch(
      /^Validation failed: query\.limit: Input should be less than or equal to 100 \(request /,
    );
    const denied = await client(proxyUrl, 'ota_wrong')
      .dashboard()
      .catch((e: unknown) => e);
    expect(denied).toMatchObject({ status: 401, error: 'invalid_token' });
  });

  it('429 with Retry-After: the client waits as told and tries again', async () => {
    let refused = 0;
    interfere = (req, res) => {
      if (req.url?.startsWith('/api/open/finance/dashboard') && refused < 2) {
        refused++;
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ code: 429, message: 'slow down', error: 'too_many', data: null, timestamp: 0 }),
        );
        return true;
      }
      return false;
    };
    try {
      const started = Date.now();
      const dashboard = await client().dashboard();
      expect(dashboard.currency).toBe('USD');
      expect(refused).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    } finally {
      interfere = () => false;
    }
  });
});

describe('retries are safe: Idempotency-Key on every POST', () => {
  it('a POST whose answer is lost is sent again under the same key: one run, the first answer', async () => {
    const fileId = (
      await client().uploadFile(
        path.join(PROJECT_ROOT, 'test/fixtures/pdfs/real/cups-filters__classified.pdf'),
      )
    ).file_id;
    const keys: string[] = [];
    let cut = 0;
    interfere = (req, res) => {
      if (req.method !== 'POST' || req.url !== '/api/open/runs') return false;
      keys.push(String(req.headers['idempotency-key']));
      if (cut > 0) return false;
      cut++;
      // the server executes the request; the client never hears its answer
      const target = new URL(h.url);
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          answer.resume();
          answer.on('end', () => res.socket?.destroy());
        },
      );
      req.pipe(upstream);
      return true;
    };
    try {
      const before = await h.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM runs WHERE tenant_id = ?',
        [h.tenant.tenant_id],
      );
      const run = await client().createRun(fileId, 'pdf-text');
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
      const after = await h.query<{ n: number | string }>(
        'SELECT COUNT(*) AS n FROM runs WHERE tenant_id = ?',
        [h.tenant.tenant_id],
      );
      expect(Number(after[0]!.n)).toBe(Number(before[0]!.n) + 1);
      expect((await client().getRun(run.id)).id).toBe(run.id);
    } finally {
      interfere = () => false;
    }
  });

  it('without keys a lost POST is reported, never repeated', async () => {
    let posts = 0;
    interfere = (req, res) => {
      if (req.method !== 'POST' || req.url !== '/api/open/runs') return false;
      posts++;
      expect(req.headers['idempotency-key']).toBeUndefined();
      res.socket?.destroy();
      return true;
    };
    try {
      const unkeyed = createClient({ baseUrl: proxyUrl, token: h.tenant.token, idempotencyKeys: false });
      await expect(unkeyed.createRun('00000000-0000-4000-8000-000000000000', 'pdf-text')).rejects.toThrow();
      expect(posts).toBe(1);
    } finally {
      interfere = () => false;
    }
  });

  it('tells the caller the rate limit of the latest answer, and each retry before it waits', async () => {
    const notices: { status: number | string; error?: string }[] = [];
    let refused = 0;
    interfere = (req, res) => {
      if (!req.url?.startsWith('/api/open/finance/dashboard') || refused > 0) return false;
      refused++;
      res.writeHead(429, {
        'retry-after': '1',
        'content-type': 'application/json',
        ratelimit: '"default";r=0;t=2',
        'ratelimit-policy': '"default";q=40;w=2',
      });
      res.end(
        JSON.stringify({ code: 429, message: 'Too many', error: 'rate_limited', data: null, timestamp: 0 }),
      );
      return true;
    };
    try {
      const told = createClient({
        baseUrl: proxyUrl,
        token: h.tenant.token,
        retry: { baseDelayMs: 20 },
        onRetry: (notice) => notices.push({ status: notice.status, error: notice.error }),
      });
      await told.dashboard();
      expect(notices).toEqual([{ status: 429, error: 'rate_limited' }]);
      // the second answer came from the server, whose limit is far above what the suite sends
      expect(told.rateLimit).toMatchObject({ limit: 1000000 });
      expect(told.rateLimit!.remaining).toBeGreaterThan(0);
    } finally {
      interfere = () => false;
    }
  });
});

describe('runs and lists', () => {
  it('diagnose: upload, run, wait, outputs; the iterators walk every page', async () => {
    const file = path.join(dir, 'diagnose.pdf');
    writeFileSync(file, await textPdf(3));
    const updates: string[] = [];
    const result = await client().diagnose(file, {
      outDir: path.join(dir, 'out'),
      onRunProgress: (run) => updates.push(run.status),
    });
    expect(result.run).toMatchObject({
      status: 'succeeded',
      total_tasks: 4,
      output_files: ['report.json', 'report.html'],
    });
    expect(JSON.parse(result.outputs['report.json']!.toString()).pages).toHaveLength(3);
    expect(readFileSync(path.join(dir, 'out', 'report.html'), 'utf8')).toMatch(/<h1>Preflight report<\/h1>/);
    expect(updates.at(-1)).toBe('succeeded');

    for (let i = 0; i < 4; i++) await client().createRun(result.upload.file_id, 'pdf-text');
    const all = [];
    for await (const run of client().runs({ limit: 2 })) all.push(run);
    const total = (await client().listRuns()).total;
    expect(all).toHaveLength(total);
    expect(new Set(all.map((r) => r.id)).size).toBe(total);
    for (const run of all) await client().waitForRun(run.id);
    const transactions = [];
    for await (const t of client().transactions({ page_size: 2 })) transactions.push(t);
    expect(transactions.length).toBe((await client().listTransactions()).total);
    expect(transactions.length).toBeGreaterThan(2);
  });
});

describe('events and webhooks', () => {
  it('waitForRun is told by the event stream: it opens one and returns without polling every 250 ms', async () => {
    const file = path.join(dir, 'told.pdf');
    writeFileSync(file, await textPdf(2));
    const upload = await client().uploadFile(file);
    const run = await client().createRun(upload.file_id);
    const before = seen.length;
    const done = await client().waitForRun(run.id, { intervalMs: 5_000 });
    expect(done.status).toBe('succeeded');
    const requests = seen.slice(before);
    expect(requests).toContain('GET /api/open/events/stream');
    // one read before the stream told it, at most one more: the stream, not the poll, ended the wait
    expect(requests.filter((r) => r === `GET /api/open/runs/${run.id}`).length).toBeLessThanOrEqual(2);
  });

  it('eventStream resumes after a dropped connection with Last-Event-ID: nothing missed, nothing twice', async () => {
    const file = path.join(dir, 'stream.pdf');
    writeFileSync(file, await textPdf(1));
    // the stream starts after the newest event there is: what follows is replayed or live, whatever the timing
    await client().uploadFile(file);
    const newest = (await client().listEvents({ type: 'upload.completed', limit: 1 })).data[0]!.id;
    const stop = new AbortController();
    const reconnects: (string | undefined)[] = [];
    const got: string[] = [];
    const stream = client().eventStream({
      type: 'upload.completed',
      lastEventId: newest,
      signal: stop.signal,
      onReconnect: ({ lastEventId }) => reconnects.push(lastEventId),
    });
    const pending = stream.next();
    const first = client().uploadFile(file);
    const next = await pending;
    got.push((next.value as { id: string }).id);
    // at the version the client speaks, an event's object is `data.object`
    expect((next.value as { data: { object: { upload_id: string } } }).data.object.upload_id).toBe(
      (await first).upload_id,
    );
    // the proxy drops the stream's connection; two more uploads complete meanwhile
    const streamSockets = seen.length;
    for (const socket of [...openStreams]) socket.destroy();
    const later = [await client().uploadFile(file), await client().uploadFile(file)];
    for (let i = 0; i < 2; i++) {
      const event = await stream.next();
      got.push((event.value as { id: string }).id);
      expect((event.value as { data: { object: { upload_id: string } } }).data.object.upload_id).toBe(
        later[i]!.upload_id,
      );
    }
    stop.abort();
    await stream.return(undefined);
    expect(reconnects[0]).toBe(got[0]);
    expect(new Set(got).size).toBe(3);
    expect(seen.slice(streamSockets)).toContain('GET /api/open/events/stream?type=upload.completed');
  });

  it('webhooks.verify accepts what the Standard Webhooks reference signs, and refuses anything else', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const body = JSON.stringify({ id: 'evt', type: 'run.succeeded', created_at: '', data: {} });
    const now = new Date();
    const signature = new Webhook(secret).sign('msg_1', now, body);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${signature}`,
    };
    expect(client().webhooks.verify(secret, headers, body)).toMatchObject({ type: 'run.succeeded' });
    expect(verifyWebhook(secret, new Headers(headers), Buffer.from(body))).toMatchObject({ id: 'evt' });
    expect(() => client().webhooks.verify(secret, headers, `${body} `)).toThrow(WebhookVerificationError);
    expect(() => client().webhooks.verify(secret, { ...headers, 'webhook-id': 'msg_2' }, body)).toThrow(
      /no signature matches/,
    );
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000) - 600) };
    expect(() => client().webhooks.verify(secret, stale, body)).toThrow(/too far/);
    expect(() => client().webhooks.verify(signature, headers, body)).toThrow(/whsec_/);
    expect(() => client().webhooks.verify(secret, {}, body)).toThrow(/missing/);
  });

  it('manages endpoints; the server as shipped refuses a loopback URL, with detail[]', async () => {
    const refused = await client()
      .webhooks.add('https://127.0.0.1/hook')
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OtaError);
    expect((refused as OtaError).error).toBe('webhook_url_not_allowed');
    expect((refused as OtaError).detail[0]!.loc).toEqual(['body', 'url']);
    expect(await client().webhooks.list()).toEqual([]);
  });
});

describe('the ota command line', () => {
  const asProcess = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'clients/typescript/src/bin.ts', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, OTA_URL: h.url, OTA_TOKEN: h.tenant.token, ...env },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({
        code: e.code,
        stdout: e.stdout,
        stderr: e.stderr,
      }),
    );
  /** `ota` in this process (see runOta), as this suite's tenant. */
  const ota = (args: string[], env: Record<string, string> = {}) =>
    runOta(args, { OTA_URL: h.url, OTA_TOKEN: h.tenant.token, ...env });

  it('the ota binary is a process whose exit code and streams are what main gives', async () => {
    const missing = await asProcess(['runs', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^error: Run not found \(request [0-9a-f-]{36}\)\n$/);
    const listed = await asProcess(['runs', 'list', '--json']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(listed.stdout)).toHaveProperty('total');
  });

  it('ota diagnose FILE --json prints the finished run, and only it', async () => {
    const result = await ota([
      'diagnose',
      path.join(PROJECT_ROOT, 'test/fixtures/pdfs/real/cups-filters__classified.pdf'),
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: 'succeeded',
      target: 'pdf-preflight',
      progress: 100,
    });
  });

  it('human output: a summary of the findings; runs list is a table with a header', async () => {
    const diagnosed = await ota([
      'diagnose',
      path.join(PROJECT_ROOT, 'test/fixtures/pdfs/real/cups-filters__classified.pdf'),
    ]);
    expect(diagnosed.stdout).toMatch(/^run {6}[0-9a-f-]{36}\nstatus {3}succeeded/);
    expect(diagnosed.stdout).toMatch(/1 error, 0 warnings, 1 note; 1 pages read, 0 failed/);
    expect(diagnosed.stdout).toMatch(/SEVERITY\s+PAGES\s+CODE\s+MESSAGE\nerror\s+1\s+font_not_embedded/);
    const listed = await ota(['runs', 'list', '--status', 'succeeded']);
    expect(listed.stdout.split('\n')[0]).toMatch(
      /^RUN\s+STATUS\s+TARGET\s+PROGRESS\s+TASKS\s+POINTS\s+FILE\s+CREATED$/,
    );
    const dashboard = await ota(['revenue', 'dashboard']);
    expect(dashboard.stdout.split('\n')[0]).toMatch(/^PERIOD\s+TOTAL\s+TECH\s+ECOSYSTEM$/);
  });

  it('a profile target prints the verdict and the failed checks, and exits 3 when it fails', async () => {
    /** `ota diagnose` of a profile fixture with a target, and any further arguments. */
    const diagnoseProfile = (fixture: string, target: string, ...more: string[]) =>
      ota([
        'diagnose',
        path.join(PROJECT_ROOT, 'test/fixtures/pdfs/profiles', fixture),
        '--target',
        target,
        ...more,
      ]);
    const failing = await diagnoseProfile('print-rgb-lowres-unembedded.pdf', 'pdf-print', '--min-ppi', '150');
    expect(failing.code).toBe(3);
    expect(failing.stdout).toMatch(/^options {2}\{"min_ppi":150\}$/m);
    expect(failing.stdout).toMatch(/^FAIL {2}Print production checks \(pdf-print\)$/m);
    expect(failing.stdout).toMatch(
      /SEVERITY\s+CHECK\s+PAGES\s+MESSAGE\nerror\s+fonts_embedded\s+1\s+Fonts not embedded: Helvetica/,
    );
    expect(failing.stdout).not.toMatch(/image_resolution_critical/);
    const archive = await diagnoseProfile('archive-javascript-attachment.pdf', 'pdf-archive');
    expect(archive.code).toBe(3);
    expect(archive.stdout).toMatch(
      /^FAIL {2}PDF\/A-2b requirements checked, the file claims no PDF\/A part/m,
    );
    // checks made of published rules name the rules that failed, as veraPDF numbers them
    expect(archive.stdout).toMatch(/SEVERITY\s+CHECK\s+RULES\s+PAGES\s+MESSAGE\n/);
    expect(archive.stdout).toMatch(/forbidden_actions\s+ISO 19005-2 6\.5\.1-1\s+document/);
    expect(archive.stdout).toMatch(/trailer_id\s+ISO 19005-2 6\.1\.3-1\s+document/);
    const passing = await diagnoseProfile('archive-pdfa2b-ghostscript.pdf', 'pdf-archive');
    expect(passing.code).toBe(0);
    expect(passing.stdout).toMatch(
      /^PASS {2}PDF\/A-2b requirements checked, as the file claims \(not a PDF\/A validation\) \(pdf-archive\)$/m,
    );
    // PDF/UA checks name their rules and the Matterhorn conditions those break, and the checkpoints follow
    const accessibility = await diagnoseProfile('accessibility-untagged.pdf', 'pdf-accessibility');
    expect(accessibility.code).toBe(3);
    expect(accessibility.stdout).toMatch(/SEVERITY\s+CHECK\s+RULES\s+MATTERHORN\s+PAGES\s+MESSAGE\n/);
    expect(accessibility.stdout).toMatch(/xmp_pdfua_claim\s+ISO 14289-1 5-1\s+06-002\s+document/);
    expect(accessibility.stdout).toMatch(/^Matterhorn Protocol: \d+ checkpoints failed$/m);
    expect(accessibility.stdout).toMatch(/^ {2}06 Metadata: 06-001, 06-002$/m);
    expect(accessibility.stdout).toMatch(/^ {2}48 conditions to review by a person \(see report\.html\)$/m);
    const json = await diagnoseProfile('accessibility-untagged.pdf', 'pdf-accessibility', '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ target: 'pdf-accessibility', status: 'succeeded' });
    const refused = await ota(['diagnose', 'x.pdf', '--min-ppi', 'abc']);
    expect(refused.code).toBe(2);
  });

  it('a rate-limited call waits with one line on stderr, then prints its result', async () => {
    let refused = 0;
    interfere = (req, res) => {
      if (!req.url?.startsWith('/api/open/finance/dashboard') || refused > 0) return false;
      refused++;
      res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ code: 429, message: 'Too many', error: 'rate_limited', data: null, timestamp: 0 }),
      );
      return true;
    };
    try {
      const result = await ota(['revenue', 'dashboard', '--json'], { OTA_URL: proxyUrl });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('rate limited, retrying in 1 s\n');
      expect(JSON.parse(result.stdout).currency).toBe('USD');
    } finally {
      interfere = () => false;
    }
  });

  it('errors print the server message and request id and exit 1; usage errors exit 2', async () => {
    const missing = await ota(['runs', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: Run not found \(request [0-9a-f-]{36}\)\n$/);
    const json = await ota(['runs', 'get', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'not_found', status: 404 });
    const noToken = await ota(['revenue', 'dashboard'], { OTA_TOKEN: '' });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toBe('error: no token: set OTA_TOKEN or pass --token\n');
  });

  const classified = path.join(PROJECT_ROOT, 'test/fixtures/pdfs/real/cups-filters__classified.pdf');

  it('FILE and --out are the directory npm was run in (INIT_CWD), not the package root npm runs the script in', async () => {
    const user = mkdtempSync(path.join(dir, 'user-'));
    writeFileSync(path.join(user, 'mine.pdf'), await textPdf(1));
    // what `npm run ota` sets: the script runs in the package root, and INIT_CWD says where the user is
    const inProcess = await ota(['diagnose', 'mine.pdf', '--out', 'report'], {
      npm_lifecycle_event: 'ota',
      INIT_CWD: user,
    });
    expect(inProcess.code, inProcess.stderr).toBe(0);
    expect(readdirSync(path.join(user, 'report')).sort()).toEqual(['report.html', 'report.json']);
    expect(inProcess.stdout).toContain(`outputs written to ${path.join(user, 'report')}`);
    expect(existsSync(path.join(PROJECT_ROOT, 'report'))).toBe(false);
    // and through npm itself, from a directory outside the project
    const npm = await promisify(execFile)(
      'npm',
      ['--prefix', PROJECT_ROOT, 'run', '--silent', 'ota', '--', 'upload', 'mine.pdf', '--json'],
      { cwd: user, env: { ...process.env, OTA_URL: h.url, OTA_TOKEN: h.tenant.token } },
    );
    expect(JSON.parse(npm.stdout)).toMatchObject({ file_name: 'mine.pdf', status: 'completed' });
  });

  it('a run that fails: diagnose prints its error code and message, and exits 1 (--json too)', async () => {
    const encrypted = path.join(
      PROJECT_ROOT,
      'test/fixtures/pdfs/real/r-cran-pdftools__pdf-example-password.original.pdf',
    );
    const failed = await ota(['diagnose', encrypted]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stdout).toMatch(/^status {3}failed \(encrypted_pdf\): \S.+$/m);
    expect(failed.stderr).toMatch(/^error: run [0-9a-f-]{36} failed \(encrypted_pdf\): \S.+\n$/);
    const json = await ota(['diagnose', encrypted, '--json']);
    expect([json.code, json.stderr]).toEqual([1, '']);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'failed', error_code: 'encrypted_pdf' });
    // a run that failed has no outputs to download: said, exit 1
    const runId = (JSON.parse(json.stdout) as { id: string }).id;
    const nothing = await ota(['runs', 'download', runId, '--out', path.join(dir, 'none')]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/^error: run \S+ has no outputs: it failed \(encrypted_pdf\)/);
  });

  it('without --out diagnose says how to get the outputs; runs download saves them', async () => {
    const diagnosed = await ota(['diagnose', classified]);
    expect(diagnosed.code).toBe(0);
    const runId = /^run {6}(\S+)$/m.exec(diagnosed.stdout)![1]!;
    expect(diagnosed.stdout).toMatch(
      new RegExp(
        `^outputs  report\\.json, report\\.html \\(not saved: ota runs download ${runId} --out DIR\\)$`,
        'm',
      ),
    );
    const into = path.join(dir, 'downloaded');
    const downloaded = await ota(['runs', 'download', runId, '--out', into]);
    expect(downloaded.code, downloaded.stderr).toBe(0);
    expect(downloaded.stdout).toBe(`${path.join(into, 'report.json')}\n${path.join(into, 'report.html')}\n`);
    expect(readdirSync(into).sort()).toEqual(['report.html', 'report.json']);
    expect(JSON.parse(readFileSync(path.join(into, 'report.json'), 'utf8')).summary).toMatchObject({
      errors: 1,
    });
    const json = await ota(['runs', 'download', runId, '--out', into, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      run_id: runId,
      files: [
        { name: 'report.json', path: path.join(into, 'report.json'), size_bytes: expect.any(Number) },
        { name: 'report.html', path: path.join(into, 'report.html'), size_bytes: expect.any(Number) },
      ],
    });
  });

  it("money is printed from minor units with the currency's decimals, the same in the dashboard and the transactions", async () => {
    // each run books its points at the tenant's price (10 minor units of USD a point): cents, not dollars
    const list = JSON.parse((await ota(['revenue', 'transactions', '--json'])).stdout).data as {
      amount: number;
      currency: string;
    }[];
    expect(list.length).toBeGreaterThan(0);
    const human = await ota(['revenue', 'transactions']);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^OCCURRED\s+TYPE\s+AMOUNT\s+DESCRIPTION$/);
    const dollars = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    list.forEach((t, i) => {
      expect(t.currency).toBe('USD');
      expect(lines[i + 1]).toMatch(new RegExp(`\\s${dollars(t.amount).replace('.', '\\.')} USD\\s`));
    });
    const sum = list.reduce((n, t) => n + t.amount, 0);
    expect(lines.at(-1)).toMatch(new RegExp(`these sum to ${dollars(sum).replace('.', '\\.')} USD$`));
    const dashboard = await ota(['revenue', 'dashboard']);
    const d = JSON.parse((await ota(['revenue', 'dashboard', '--json'])).stdout) as {
      all_time: { total: number };
    };
    expect(dashboard.stdout).toMatch(
      new RegExp(`^all time\\s+${dollars(d.all_time.total).replace('.', '\\.')} USD\\s`, 'm'),
    );
    expect(dashboard.stdout).not.toMatch(/assume/);
  });

  it('a server that cannot be reached: after the retries, the URL and the cause, and exit 1', async () => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await ota(['runs', 'list'], { OTA_URL: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.slice(0, -1)).toEqual(
      Array.from({ length: 5 }, () =>
        expect.stringMatching(
          new RegExp(
            `^could not connect to http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\), retrying in \\d+ s$`,
          ),
        ),
      ),
    );
    expect(lines.at(-1)).toBe(
      `error: could not reach http://127.0.0.1:${port}/api/open/runs?limit=20 (6 attempts): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    // the client's own error says it too, typed
    const error = await createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: h.tenant.token,
      retry: { retries: 1, baseDelayMs: 1 },
    })
      .getRun('00000000-0000-4000-8000-000000000000')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({
      method: 'GET',
      url: `http://127.0.0.1:${port}/api/open/runs/00000000-0000-4000-8000-000000000000`,
      attempts: 2,
      reason: `connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('an argument that cannot be an id is refused here, exit 2 with the usage; nothing is sent', async () => {
    const before = seen.length;
    const runGet = await ota(['runs', 'get', 'latest'], { OTA_URL: proxyUrl });
    expect(runGet).toMatchObject({ code: 2, stdout: '' });
    expect(runGet.stderr).toBe(
      "error: command-argument value 'latest' is invalid for argument 'run_id'. a run id is a UUID, such as 5d6f0e3a-8a0c-4a55-9a34-0d1c7c0f5b1e (ota runs list shows them)\n" +
        'usage: ota runs get [options] <run_id>\n',
    );
    for (const args of [
      ['runs', 'watch', '42'],
      ['runs', 'rerun', 'abc'],
      ['runs', 'cancel', 'abc'],
      ['runs', 'download', 'report.json'],
      ['upload', classified, '--resume', 'abc'],
      ['webhooks', 'delete', 'hook'],
    ]) {
      const refused = await ota(args, { OTA_URL: proxyUrl, OTA_ADMIN_URL: proxyUrl, OTA_ADMIN_TOKEN: 'x' });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toMatch(/is a UUID, such as .*\nusage: ota /);
    }
    // a tenant is its id or the platform's external id: a space is neither
    const tenant = await ota(['admin', 'tenants', 'get', 'ac me'], {
      OTA_ADMIN_URL: proxyUrl,
      OTA_ADMIN_TOKEN: 'x',
    });
    expect(tenant.code).toBe(2);
    expect(tenant.stderr).toMatch(/a tenant is its id \(a UUID\) or its external id/);
    const json = await ota(['runs', 'get', 'latest', '--json'], { OTA_URL: proxyUrl });
    expect([json.code, json.stderr]).toEqual([2, '']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: 'usage',
      usage: 'ota runs get [options] <run_id>',
    });
    expect(seen.length).toBe(before);
  });

  it('a command group without its subcommand prints its help on stderr and exits 2 (every group)', async () => {
    const program = buildProgram();
    const every = (command: Command): Command[] => [command, ...command.commands.flatMap(every)];
    const words = (command: Command): string[] =>
      command.parent ? [...words(command.parent), command.name()] : [];
    const groups = every(program).filter((command) => command.commands.length > 0);
    expect(groups.map((group) => words(group).join(' ') || group.name())).toEqual([
      'ota',
      'runs',
      'revenue',
      'events',
      'webhooks',
      'admin',
      'admin tenants',
      'admin tokens',
      'admin ledger',
      'admin usage',
      'admin admin-tokens',
    ]);
    for (const group of groups) {
      // `admin usage` is a command of its own (usage TENANT_ID) as well as `usage all`'s group
      if (group.registeredArguments.length > 0) continue;
      const args = words(group);
      const result = await ota(args);
      expect(result.code, group.name()).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(`^Usage: ota ${args.join(' ')}\\s*\\[options\\] \\[command\\]\n`),
      );
      for (const sub of group.commands) expect(result.stderr).toContain(`  ${sub.name()}`);
      const json = await ota([...args, '--json']);
      expect(json.code).toBe(2);
      expect(json.stderr).toBe('');
      expect(JSON.parse(json.stdout)).toEqual({ error: 'usage', message: 'a subcommand is missing' });
    }
  });
});
