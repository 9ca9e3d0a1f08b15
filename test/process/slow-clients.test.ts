import { once } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../helpers/files.js';
import {
  call,
  port,
  type Started,
  startServerProcess,
  tempDataDir,
  newTenant,
} from '../helpers/processes.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * Slow and stalled clients against a real server process: trickled headers and stalled part bodies are
 * cut off by the configured timeouts, descriptors and memory stay bounded, and another tenant is served
 * all the while.
 */
const TIMEOUT_MS = 1500;
let dataDir: string;
let server: Started;
const tokens: string[] = [];

const fds = () => readdirSync(`/proc/${server.child.pid}/fd`).length;
const rssMb = () =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  dataDir = await tempDataDir();
  for (const name of ['slow-a', 'slow-b', 'bystander']) {
    tokens.push((await newTenant(dataDir, name)).token);
  }
  server = await startServerProcess(dataDir, port(), {
    PARSER_THREADS: '0',
    BODY_IDLE_TIMEOUT_MS: String(TIMEOUT_MS),
    HTTP_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS),
    MAX_CONCURRENT_PARTS_PER_TENANT: '8',
    MAX_CONCURRENT_PARTS: '12',
  });
});
afterAll(async () => {
  await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

function trickleHeaders(): Socket {
  const { port: p } = new URL(server.url);
  const socket = connect(Number(p), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  socket.write('GET /api/open/runs HTTP/1.1\r\nHost: x\r\n');
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write('X-Slow: 1\r\n');
  }, 200);
  socket.on('close', () => clearInterval(timer));
  return socket;
}

describe('slow clients', () => {
  it('trickled headers and stalled bodies are cut off; descriptors and RSS stay bounded; others are served', async () => {
    const pdf = readPdf('real/cups-filters__classified.pdf');
    await call(server.url, tokens[2]!, 'GET', '/api/open/runs');
    const idleFds = fds();
    const idleRss = rssMb();

    const trickling = Array.from({ length: 150 }, trickleHeaders);
    const stalled: Promise<{ status: number }>[] = [];
    for (const token of [tokens[0]!, tokens[1]!]) {
      for (let i = 0; i < 15; i++) {
        const upload = (
          await call(server.url, token, 'POST', '/api/open/uploads', {
            file_name: 'a.pdf',
            size_bytes: pdf.length,
          })
        ).body.data;
        stalled.push(
          rawRequest(server.url, 'PUT', `/api/open/uploads/${upload.upload_id}/parts/1`, {
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/pdf',
              'content-length': String(pdf.length),
            },
            chunks: [Buffer.from(pdf.subarray(0, 100)), Buffer.from(pdf.subarray(100))],
            stallAfter: 1,
          }).catch(() => ({ status: 0 })),
        );
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const peakFds = fds();

    // the bystander is served meanwhile, promptly
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const res = await call(server.url, tokens[2]!, 'GET', '/api/open/runs?limit=5');
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(500);
    }

    const statuses = (await Promise.all(stalled)).map((r) => r.status);
    // 12 bodies admitted in all (8 per tenant at most), cut off after the idle timeout; the rest refused at once
    expect(statuses.filter((s) => s === 408).length).toBe(12);
    expect(statuses.filter((s) => s === 429 || s === 503).length).toBe(18);
    // every trickling connection is closed by the server once HTTP_HEADERS_TIMEOUT_MS has passed
    const cutOff = await Promise.race([
      Promise.all(trickling.map((socket) => (socket.destroyed ? undefined : once(socket, 'close')))).then(
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), TIMEOUT_MS + 5000)),
    ]);
    expect(cutOff, 'the server closed every trickling connection').toBe(true);
    // the server lets go of the descriptors as it sees the sockets close
    const deadline = Date.now() + 5000;
    while (fds() - idleFds > 5 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));

    // one descriptor per open connection at the peak (and no temp-file descriptors left after)
    expect(peakFds - idleFds).toBeLessThanOrEqual(150 + 30 + 12 + 10);
    expect(fds() - idleFds).toBeLessThanOrEqual(5);
    expect(rssMb() - idleRss).toBeLessThan(50);
    expect(server.child.exitCode).toBeNull();
  });
});
