import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_VERSION, CLIENT_VERSION } from '../generated/version.js';
import { createClient, type Run } from '../src/index.js';
import { runOta } from './helpers/run-ota.js';
import { NEWEST_VERSION } from '../../../src/versions/registry.js';

/**
 * The version the client speaks, seen from the server's side: a loopback server that records the
 * `Open-Tenant-Version` of every request and answers as a server at these versions would. The server's
 * own versioning is tested against the real app (test/http); here only what the client sends and reads.
 */
const SUPPORTED = ['2026-11-29', API_VERSION];
const RUN_ID = '5d6f0e3a-8a0c-4a55-9a34-0d1c7c0f5b1e';
const UPLOAD_ID = '6e7f1f4b-9b1d-4b66-8b45-1e2d8d1f6c2f';
const PART = Buffer.from('%PDF-1.7 just enough bytes for one part');

let server: Server;
let url: string;
/** `METHOD path version` of every request the server got. */
let seen: string[] = [];

const run = (status: Run['status']): Partial<Run> => ({
  id: RUN_ID,
  status,
  target: 'pdf-preflight',
  progress: status === 'succeeded' ? 100 : 50,
  completed_tasks: 1,
  failed_tasks: 0,
  total_tasks: 2,
});

function send(res: ServerResponse, status: number, body: unknown, version: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'open-tenant-version': version });
  res.end(JSON.stringify(body));
}

const ok = (data: unknown) => ({ code: 0, message: 'ok', data, timestamp: 0, request_id: 'r-ok' });

function answer(req: IncomingMessage, res: ServerResponse): void {
  const version = String(req.headers['open-tenant-version'] ?? '');
  const route = `${req.method} ${new URL(req.url ?? '/', url).pathname}`;
  seen.push(`${route} ${version}`);
  if (!SUPPORTED.includes(version)) {
    return send(
      res,
      400,
      {
        code: 400,
        error: 'unsupported_version',
        message: `API version "${version}" is not a released version: the supported versions are ${SUPPORTED.join(', ')}`,
        data: null,
        timestamp: 0,
        request_id: 'r-400',
      },
      SUPPORTED.at(-1)!,
    );
  }
  switch (route) {
    case 'GET /api/open/versions':
      return send(
        res,
        200,
        ok({
          versions: [
            { version: '2026-11-29', status: 'supported', changes: [] },
            {
              version: API_VERSION,
              status: 'newest',
              changes: ['An event carries its object under `data.object`.'],
            },
          ],
          newest: API_VERSION,
          pinned: '2026-11-29',
          current: version,
        }),
        version,
      );
    case `GET /api/open/runs/${RUN_ID}`:
      return send(res, 200, ok(run('running')), version);
    case 'GET /api/open/events':
      return send(
        res,
        200,
        ok([
          {
            id: 'aaaaaaaa-0000-4000-8000-000000000001',
            type: 'run.succeeded',
            created_at: '2026-12-01T10:00:00.000Z',
            data: { object: run('succeeded') },
          },
        ]),
        version,
      );
    case 'GET /api/open/events/stream': {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'open-tenant-version': version });
      const event = {
        id: 'aaaaaaaa-0000-4000-8000-000000000001',
        type: 'run.succeeded',
        created_at: '2026-12-01T10:00:00.000Z',
        data: { object: run('succeeded') },
      };
      res.write(`id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`);
      return; // left open, as the server's stream is: the client closes it
    }
    case 'POST /api/open/uploads':
      return send(
        res,
        201,
        ok({
          upload_id: UPLOAD_ID,
          size_bytes: PART.length,
          part_size: PART.length,
          part_count: 1,
          missing_parts: [1],
        }),
        version,
      );
    case `PUT /api/open/uploads/${UPLOAD_ID}/parts/1`:
      req.resume();
      return send(res, 200, ok({ part_number: 1 }), version);
    case 'POST /api/open/uploads/complete':
      return send(
        res,
        200,
        ok({ upload_id: UPLOAD_ID, sha256: createHash('sha256').update(PART).digest('hex') }),
        version,
      );
    default:
      return send(res, 404, { code: 404, error: 'not_found', message: 'Not found', data: null }, version);
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    // answer once the body is in, as a server does
    req.on('data', () => undefined);
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen = [];
});

describe('the version the client speaks', () => {
  it("is the newest version, the contract's info.version it was generated from, exported as API_VERSION", () => {
    expect(API_VERSION).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(API_VERSION).toBe(NEWEST_VERSION);
    expect(createClient({ baseUrl: url, token: 't' }).apiVersion).toBe(API_VERSION);
  });

  it('every request carries Open-Tenant-Version: reads, POSTs, parts and the event stream', async () => {
    const client = createClient({ baseUrl: url, token: 't' });
    await client.versions();
    await client.uploadFile({ stream: Readable.from([PART]), size: PART.length, fileName: 'a.pdf' });
    // the run is `running` when read: only the stream's event, read from `data.object`, can end the wait
    const finished = await client.waitForRun(RUN_ID, { timeoutMs: 30_000 });
    expect(finished.status).toBe('succeeded');
    expect(seen).toEqual(
      expect.arrayContaining([
        `GET /api/open/versions ${API_VERSION}`,
        `POST /api/open/uploads ${API_VERSION}`,
        `PUT /api/open/uploads/${UPLOAD_ID}/parts/1 ${API_VERSION}`,
        `POST /api/open/uploads/complete ${API_VERSION}`,
        `GET /api/open/runs/${RUN_ID} ${API_VERSION}`,
        `GET /api/open/events/stream ${API_VERSION}`,
      ]),
    );
    expect(seen.every((line) => line.endsWith(` ${API_VERSION}`))).toBe(true);
  });

  it('apiVersion chooses another version for every request of that client', async () => {
    const client = createClient({ baseUrl: url, token: 't', apiVersion: '2026-11-29' });
    expect(client.apiVersion).toBe('2026-11-29');
    await client.versions();
    await client.getRun(RUN_ID);
    expect(seen).toEqual([`GET /api/open/versions 2026-11-29`, `GET /api/open/runs/${RUN_ID} 2026-11-29`]);
  });

  it('a version the server does not support is an OtaError unsupported_version naming the supported ones', async () => {
    const client = createClient({ baseUrl: url, token: 't', apiVersion: '2020-01-01' });
    const error = await client.getRun(RUN_ID).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, error: 'unsupported_version' });
    expect((error as Error).message).toContain(SUPPORTED.join(', '));
  });
});

describe('ota and versions', () => {
  const env = () => ({ OTA_URL: url, OTA_TOKEN: 't' });

  it('ota --version and ota version say the client version and the API version it sends', async () => {
    const flag = await runOta(['--version']);
    expect(flag.code).toBe(0);
    expect(flag.stdout.trim()).toBe(`ota ${CLIENT_VERSION} (API version ${API_VERSION})`);
    const command = await runOta(['version']);
    expect(command.stdout).toContain(`API version ${API_VERSION} (the one this ota was generated from)`);
    const json = await runOta(['--api-version', '2026-11-29', 'version', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      client_version: CLIENT_VERSION,
      api_version: '2026-11-29',
      generated_from: API_VERSION,
    });
    expect(seen).toEqual([]); // it asks no server
  });

  it("ota versions lists the server's versions, marking the pinned one and the one ota sends", async () => {
    const result = await runOta(['versions'], env());
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^VERSION\s+STATUS\s+CHANGES/);
    expect(lines[1]).toMatch(new RegExp(`^${API_VERSION}\\s+newest\\s+1\\s+ota sends it$`));
    expect(lines[2]).toMatch(/^2026-11-29\s+supported\s+0\s+pinned$/);
    expect(result.stdout).toContain(`ota sends ${API_VERSION}; the tenant is pinned to 2026-11-29`);
    expect(result.stdout).toContain(`${API_VERSION}: An event carries its object under \`data.object\`.`);
    const json = await runOta(['versions', '--json'], env());
    expect(JSON.parse(json.stdout)).toMatchObject({ pinned: '2026-11-29', newest: API_VERSION });
    expect(seen).toEqual([`GET /api/open/versions ${API_VERSION}`, `GET /api/open/versions ${API_VERSION}`]);
  });

  it('OTA_API_VERSION and --api-version choose the version ota sends', async () => {
    await runOta(['versions'], { ...env(), OTA_API_VERSION: '2026-11-29' });
    const result = await runOta(['--api-version', '2026-11-29', 'versions'], env());
    expect(result.stdout).toMatch(/^2026-11-29\s+supported\s+0\s+ota sends it, pinned$/m);
    expect(seen).toEqual([`GET /api/open/versions 2026-11-29`, `GET /api/open/versions 2026-11-29`]);
  });

  it("an unsupported version: the server's message, the version ota sent and how to choose another; exit 1", async () => {
    const result = await runOta(['--api-version', '2020-01-01', 'runs', 'get', RUN_ID], env());
    expect(result.code).toBe(1);
    const [error, hint] = result.stderr.trimEnd().split('\n');
    expect(error).toBe(
      `error: API version "2020-01-01" is not a released version: the supported versions are ${SUPPORTED.join(', ')} (request r-400)`,
    );
    expect(hint).toMatch(/^hint: ota sent Open-Tenant-Version 2020-01-01; choose another with --api-version/);
    const json = await runOta(['--api-version', '2020-01-01', '--json', 'runs', 'get', RUN_ID], env());
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: 'unsupported_version',
      status: 400,
      api_version: '2020-01-01',
    });
  });

  it("events are read in the newest shape: each event's object is data.object", async () => {
    const result = await runOta(['events', 'list'], env());
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]).toMatch(new RegExp(`run\\.succeeded\\s+${RUN_ID}\\s`));
  });
});
