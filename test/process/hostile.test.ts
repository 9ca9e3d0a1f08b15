import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../helpers/files.js';
import {
  blankPagesFile,
  amongOrdinaryPages,
  deepNesting,
  fourthObjectStream,
  hugeDeclaredImage,
  operatorBomb,
  sharedHugeContent,
} from '../helpers/hostile-pdfs.js';
import {
  call,
  finished,
  pollRun,
  port,
  type Started,
  startServerProcess,
  tempDataDir,
  uploadWhole,
  newTenant,
} from '../helpers/processes.js';
import { recordBatchThreadsWaiting } from '../helpers/threads.js';

/**
 * Every class of hostile PDF, through both pipelines, against a real server process: the process lives,
 * stays responsive, ends every run within its limits, and gives its memory back.
 */
const TASK_TIMEOUT_MS = 3000;
// above what every run that ends by itself takes on an idle machine (the slowest about 5.5 s), below the
// two runs that only the run timeout ends (200 pages sharing one huge stream); a run the storm slows past it
// fails at its deadline, a bounded end like any other. Every second more is a second of both parser threads.
const RUN_TIMEOUT_MS = 7000;

let dataDir: string;
let server: Started;
let token: string;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

beforeAll(async () => {
  dataDir = await tempDataDir();
  token = (await newTenant(dataDir, 'hostile')).token;
  server = await startServerProcess(dataDir, port(), {
    PARSER_THREADS: '2',
    TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS),
    RUN_TIMEOUT_MS: String(RUN_TIMEOUT_MS),
  });
});
afterAll(async () => {
  await server.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

async function runOn(fileId: string, target: string): Promise<string> {
  const created = await call(server.url, token, 'POST', '/api/open/runs', { file_id: fileId, target });
  expect(created.status).toBe(201);
  return created.body.data.id;
}

describe('hostile PDFs', () => {
  it('the server survives, answers /healthz fast, bounds every run and returns its memory', async () => {
    // warm up: parser threads exist and have parsed something, so "idle" is the steady state
    const warm = await uploadWhole(server.url, token, readPdf('real/cups-filters__classified.pdf'));
    await pollRun(server.url, token, await runOn(warm, 'pdf-preflight'), finished, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRss = rssMb(server.child.pid!);

    const hostile: Record<string, Uint8Array> = {
      'operator bomb (20M path operators)': operatorBomb(),
      '200 pages sharing a 5M-character stream': sharedHugeContent(),
      'deep nesting (200k q)': deepNesting(),
      'flate bomb (512 MB)': readPdf('malformed/flate-bomb-512MB.pdf'),
      // parser tasks read several pages at once: the bomb takes its batch down, and only its page may fail
      'flate bomb among five ordinary pages': amongOrdinaryPages(
        fourthObjectStream(Buffer.from(readPdf('malformed/flate-bomb-512MB.pdf'))),
      ),
      'page-tree loop': readPdf('malformed/circular-pages.pdf'),
      'huge declared image (100000 x 100000)': hugeDeclaredImage(),
    };
    const files = new Map<string, string>();
    for (const [name, bytes] of Object.entries(hostile))
      files.set(name, await uploadWhole(server.url, token, bytes));

    // the runs execute on threads at the idle policy: on a loaded machine they wait for a core, and each
    // run's time past its deadline is judged without what the machine denied them
    const waiting = recordBatchThreadsWaiting(server.child.pid!);
    const latencies: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        const res = await fetch(`${server.url}/healthz`);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();

    const runs: { name: string; target: string; id: string }[] = [];
    for (const [name, fileId] of files) {
      for (const target of ['pdf-preflight', 'pdf-text'])
        runs.push({ name, target, id: await runOn(fileId, target) });
    }
    const outcomes = [];
    for (const run of runs) {
      const state = await pollRun(server.url, token, run.id, finished, 120_000);
      outcomes.push({ ...run, state });
    }
    probing = false;
    await prober;
    waiting.stop();

    expect(server.child.exitCode).toBeNull();
    for (const { name, target, state } of outcomes) {
      expect(['succeeded', 'failed'], `${name} ${target}`).toContain(state.status);
      // ended by its deadline: what is left after it (stopping the thread, the report, the commit) took 1.2 s
      // once on a loaded CI machine, beside the storm's other runs. Beyond that, only the time its threads
      // waited for a core: on this machine class beside other test runs they waited 9 s of a 9.3 s overrun
      const deadline = Date.parse(state.started_at) + RUN_TIMEOUT_MS;
      const ended = Date.parse(state.completed_at);
      const denied = ended > deadline ? waiting.waitedBetween(deadline, ended) : 0;
      expect(
        ended - deadline - denied,
        `${name} ${target} took ${ended - deadline + RUN_TIMEOUT_MS} ms, its threads waited ${Math.round(denied)} ms for a core past its deadline`,
      ).toBeLessThanOrEqual(2000);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
    expect(latencies.length).toBeGreaterThan(20);
    expect(p99, `healthz p99 ${p99.toFixed(1)} ms over ${latencies.length} probes`).toBeLessThan(200);

    // parser threads that grew are replaced; what they held goes back (the pool that replaces them runs at
    // the idle policy too: on a loaded machine that comes later, not never)
    let rss = rssMb(server.child.pid!);
    for (let i = 0; i < 300 && rss > idleRss + 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      rss = rssMb(server.child.pid!);
    }
    expect(rss, `RSS ${rss.toFixed(0)} MB after the runs, ${idleRss.toFixed(0)} MB idle`).toBeLessThanOrEqual(
      idleRss + 100,
    );

    // the flate bomb fails its page at the memory cap, and only its page; judged once the storm is over, so
    // that what is judged is the page's failure and not the wait for threads the other hostile runs hold.
    // This is about memory, not time: the server is started again without the storm's short run timeout,
    // which a loaded machine's starved parser threads could reach before the ordinary pages are read
    await server.kill();
    server = await startServerProcess(dataDir, port(), {
      PARSER_THREADS: '2',
      TASK_TIMEOUT_MS: String(TASK_TIMEOUT_MS),
    });
    const preflightAlone = async (name: string) =>
      pollRun(server.url, token, await runOn(files.get(name)!, 'pdf-preflight'), finished, 60_000);
    const bomb = await preflightAlone('flate bomb (512 MB)');
    expect(bomb, JSON.stringify(bomb)).toMatchObject({ status: 'succeeded', failed_tasks: 1 });
    const among = await preflightAlone('flate bomb among five ordinary pages');
    expect(among, JSON.stringify(among)).toMatchObject({
      status: 'succeeded',
      total_tasks: 7,
      completed_tasks: 6,
      failed_tasks: 1,
    });
    const report = (await (
      await fetch(`${server.url}/api/open/runs/${among.id}/files/report.json`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { pages: { page: number; status: string }[] };
    expect(report.pages.map((p) => p.status)).toEqual(['ok', 'ok', 'failed', 'ok', 'ok', 'ok']);
  }, 300_000);

  it('a million blank pages: complete refuses it past MAX_PAGES and the upload stays pending', async () => {
    // the page count takes 1.2 s on an idle machine and more than the storm's 3 s task timeout on a loaded
    // one: this is about the page limit, so the server is started again with the default task timeout
    await server.kill();
    server = await startServerProcess(dataDir, port());
    const file = path.join(dataDir, 'million.pdf');
    await blankPagesFile(file, 1_000_000);
    const bytes = new Uint8Array(readFileSync(file));
    rmSync(file);
    const upload = (
      await call(server.url, token, 'POST', '/api/open/uploads', {
        file_name: 'million.pdf',
        size_bytes: bytes.length,
      })
    ).body.data;
    for (let n = 1; n <= upload.part_count; n++) {
      const part = bytes.subarray((n - 1) * upload.part_size, n * upload.part_size);
      const sent = await call(
        server.url,
        token,
        'PUT',
        `/api/open/uploads/${upload.upload_id}/parts/${n}`,
        undefined,
        part,
      );
      expect(sent.status).toBe(200);
    }
    // the page count is read on a parser thread at the idle policy: its wait for a core is not its time
    const waiting = recordBatchThreadsWaiting(server.child.pid!);
    const started = Date.now();
    const done = await call(server.url, token, 'POST', '/api/open/uploads/complete', {
      upload_id: upload.upload_id,
    });
    expect(done.status).toBe(422);
    expect(done.body).toMatchObject({
      error: 'too_many_pages',
      message: 'The PDF has 1000000 pages; at most 10000 are accepted',
    });
    const ended = Date.now();
    waiting.stop();
    const denied = waiting.waitedBetween(started, ended);
    expect(
      ended - started - denied,
      `${ended - started} ms, ${Math.round(denied)} ms waiting for a core`,
    ).toBeLessThan(10_000);
    const after = await call(server.url, token, 'GET', `/api/open/uploads/${upload.upload_id}`);
    expect(after.body.data).toMatchObject({ status: 'pending', missing_parts: [] });
  });
});
