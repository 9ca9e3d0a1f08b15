import { describe, expect, it } from 'vitest';
import { readPdf } from '../helpers/files.js';
import {
  call,
  cleanedAfterEach,
  finished,
  pollRun,
  port,
  startServerProcess,
  tempDataDir,
  uploadWhole,
  newTenant,
} from '../helpers/processes.js';
import { hasChrt, SCHED_IDLE, threadsOf } from '../helpers/threads.js';

const { started, dirs } = cleanedAfterEach();

describe.runIf(process.platform === 'linux')('the embedded worker of `npm start`', () => {
  it('executes runs on a thread of its own at low priority, started with the first run; its log lines come out of the process', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'threads');
    const server = await startServerProcess(dataDir, port(), {
      PARSER_THREADS: '1',
      PROBE_THREADS: '1',
      LOG_LEVEL: 'info',
    });
    started.push(server);
    let stdout = '';
    server.child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const pid = server.child.pid!;
    const lowered = () => threadsOf(pid).filter((thread) => thread.nice === 19);
    const idlePolicy = () => threadsOf(pid).filter((thread) => thread.policy === SCHED_IDLE);
    // nothing to execute yet: no run thread, no parser thread (each costs about 13 MB)
    expect(lowered()).toHaveLength(0);
    const fileId = await uploadWhole(server.url, tenant.token, readPdf('real/cups-filters__classified.pdf'));
    // the upload's probe thread only
    expect(lowered()).toHaveLength(1);
    const run = await call(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId });
    expect(run.status).toBe(201);
    const done = await pollRun(server.url, tenant.token, run.body.data.id, finished, 30_000);
    expect(done.status).toBe('succeeded');

    // the event loop that answers requests keeps its priority
    expect(threadsOf(pid).find((thread) => thread.tid === pid)).toMatchObject({ nice: 0, policy: 0 });
    // the run thread, the parser thread its runs parse on, and the thread that probes uploads
    expect(lowered()).toHaveLength(3);
    // all three at the idle policy too, where chrt is (the run thread's leases are kept by the event loop)
    if (hasChrt()) expect(idlePolicy()).toHaveLength(3);

    // the run thread's lines reach the process's log within its NEWS_MS, with their own time
    await expect
      .poll(() => stdout.split('\n').find((line) => line.includes(run.body.data.id)), { timeout: 5_000 })
      .toMatch(/^\{"level":\d+,"time":"[^"]+Z",/);
    expect(stdout).toMatch(/"msg":"run finished"/);
  });
});
