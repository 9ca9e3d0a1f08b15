import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textPdf } from '../helpers/files.js';
import {
  call,
  finished,
  pollRun,
  port,
  queryDeployment,
  startServerProcess,
  type Started,
  tempDataDir,
  uploadWhole,
  newTenant,
} from '../helpers/processes.js';

/**
 * A run whose outputs meet a full disk, on a real server process: DATA_DIR is a 16 MiB tmpfs, and the
 * folder the runs' outputs go to (`blobs/runs`) a tmpfs of its own, filled to the last byte. So the
 * outputs cannot be written while the database, beside them, still can: as when a nearly full disk takes
 * a run's few small rows but not its report. (One filesystem for both would make which write fails first
 * a matter of SQLite's free pages; the database's own full disk is test/process/full-disk.test.ts's.)
 */
/** Whether this process may mount a tmpfs (root with the right to mount): tried once, on a probe folder. */
const MOUNT_ALLOWED = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'ota-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

let dataDir = '';
let outputsDir = '';
let server: Started;
let token = '';
let fileId = '';
let log = '';
const mounted: string[] = [];

function mountTmpfs(dir: string, size: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounted.unshift(dir);
}

/** Fills the outputs' filesystem to the last block. */
function fillOutputs(): string {
  const filler = path.join(outputsDir, 'filler');
  const chunk = Buffer.alloc(4096, 1);
  let written = Buffer.alloc(0);
  try {
    for (;;) {
      written = Buffer.concat([written, chunk]);
      writeFileSync(filler, written);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

/** The run's queue entry as the queue keeps it. */
async function queueEntry(runId: string) {
  const [entry] = await queryDeployment<{ lease_owner: string | null; lease_until: string | null }>(
    dataDir,
    'SELECT lease_owner, lease_until FROM run_queue WHERE run_id = ?',
    [runId],
  );
  return entry!;
}

/** Polls until the run's entry is back in the queue, unleased and held back to a time to come. */
async function handedBack(runId: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const entry = await queueEntry(runId);
    if (
      entry.lease_owner === null &&
      entry.lease_until !== null &&
      Date.parse(entry.lease_until) > Date.now()
    )
      return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

async function createRun(): Promise<{ id: string; createdAt: number }> {
  const created = await call(server.url, token, 'POST', '/api/open/runs', { file_id: fileId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.id as string, createdAt: Date.now() };
}

/** What the run left in the outputs' filesystem: temporary files, half-written outputs. */
function leftInOutputs(runId: string): string[] {
  return readdirSync(outputsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.parentPath.includes(runId))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe.skipIf(!MOUNT_ALLOWED)('a run whose outputs find the disk full', () => {
  beforeAll(async () => {
    dataDir = await tempDataDir();
    mountTmpfs(dataDir, '16m');
    outputsDir = path.join(dataDir, 'blobs', 'runs');
    mountTmpfs(outputsDir, '256k');
    // the default lease (30 s): a run that waited it out would show here
    server = await startServerProcess(dataDir, port(), { PARSER_THREADS: '1' });
    server.child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
    token = (await newTenant(dataDir, 'full-disk')).token;
    fileId = await uploadWhole(server.url, token, await textPdf(3));
  }, 60_000);

  afterAll(async () => {
    await server?.kill();
    for (const dir of mounted.splice(0)) execFileSync('umount', ['-l', dir]);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('waits in the queue within 5 s, and succeeds once space returns, the server up throughout', async () => {
    const filler = fillOutputs();
    const run = await createRun();
    expect(await handedBack(run.id, 5_000), 'handed back to the queue within 5 s').toBe(true);
    // the operator's line: the run's worker logs it once the run is back in the queue
    const logged = Date.now() + 5_000;
    while (!/disk is full/i.test(log) && Date.now() < logged) await new Promise((r) => setTimeout(r, 25));
    expect(log).toMatch(/the disk is full: the run could not write its outputs and waits in the queue/);
    const waiting = (await call(server.url, token, 'GET', `/api/open/runs/${run.id}`)).body.data;
    expect(['queued', 'running']).toContain(waiting.status);

    unlinkSync(filler);
    const last = await pollRun(server.url, token, run.id, finished, 30_000);
    expect(last, JSON.stringify(last)).toMatchObject({
      status: 'succeeded',
      error_code: null,
      output_files: ['report.json', 'report.html'],
    });
    const report = await fetch(`${server.url}/api/open/runs/${run.id}/files/report.json`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(report.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 45_000);

  it('fails as storage_full, saying so, when space does not return; nothing half-written is left', async () => {
    fillOutputs();
    const run = await createRun();
    expect(await handedBack(run.id, 5_000), 'handed back to the queue within 5 s').toBe(true);
    // the retries wait 0.5 + 1 + 2 s, each followed by an execution of a 3-page file: the run ends in a few
    // seconds (the bound leaves room for a loaded machine)
    const last = await pollRun(server.url, token, run.id, finished, 40_000);
    expect(last, JSON.stringify(last)).toMatchObject({ status: 'failed', error_code: 'storage_full' });
    expect(last.error).toMatch(/disk is full/i);
    expect(Date.now() - run.createdAt).toBeLessThan(20_000);
    expect(leftInOutputs(run.id)).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
