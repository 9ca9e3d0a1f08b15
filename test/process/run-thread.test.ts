import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../helpers/files.js';
import {
  admin,
  call,
  cleanedAfterEach,
  finished,
  pollRun,
  port,
  startServerProcess,
  tempDataDir,
  uploadWhole,
} from '../helpers/processes.js';

const { started, dirs } = cleanedAfterEach();

const SCHED_IDLE = 5;

/** Each thread of a process: its name and scheduling policy (field 41 of /proc/<pid>/task/<tid>/stat). */
function threadsOf(pid: number): { tid: number; name: string; policy: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return {
      tid: Number(tid),
      name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(),
      policy: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]),
    };
  });
}

function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.runIf(process.platform === 'linux' && hasChrt())('the embedded worker of `npm start`', () => {
  it('executes runs on a thread of its own at the idle policy, started with the first run; its log lines come out of the process', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = (await admin(dataDir, 'tenants', 'create', '--name', 'threads', '--json')).json as {
      token: string;
    };
    const server = await startServerProcess(dataDir, port(), {
      PARSER_THREADS: '1',
      PROBE_THREADS: '1',
      LOG_LEVEL: 'info',
    });
    started.push(server);
    let stdout = '';
    server.child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const pid = server.child.pid!;
    const idleThreads = () => threadsOf(pid).filter((thread) => thread.policy === SCHED_IDLE);
    // nothing to execute yet: no run thread, no parser thread (each costs about 13 MB)
    expect(idleThreads()).toHaveLength(0);
    const fileId = await uploadWhole(server.url, tenant.token, readPdf('real/cups-filters__classified.pdf'));
    // the upload's probe thread only
    expect(idleThreads()).toHaveLength(1);
    const run = await call(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId });
    expect(run.status).toBe(201);
    const done = await pollRun(server.url, tenant.token, run.body.data.id, finished, 30_000);
    expect(done.status).toBe('succeeded');

    // the event loop that answers requests keeps the normal policy
    expect(threadsOf(pid).find((thread) => thread.tid === pid)?.policy).not.toBe(SCHED_IDLE);
    // the run thread, the parser thread its runs parse on, and the thread that probes uploads
    expect(idleThreads()).toHaveLength(3);

    // the run thread's news reaches the process's log within its NEWS_MS
    await expect
      .poll(() => stdout.split('\n').find((line) => line.includes(run.body.data.id)), { timeout: 5_000 })
      .toMatch(/"msg":"run finished"/);
    expect(stdout).toMatch(/"status":"succeeded"/);
  });
});
