import { describe, expect, it } from 'vitest';
import { blobEngine, padPdf, partSize } from '../helpers/blobs.js';
import { engine } from '../helpers/engine.js';
import { readPdf, sha256, textPdf } from '../helpers/files.js';
import {
  call,
  deploymentBlobs,
  readBlob,
  finished,
  pollRun,
  port,
  runInSlices,
  runReader,
  startServerProcess,
  startWorkerProcess,
  tempDataDir,
  uploadWhole,
  queryDeployment,
  cleanedAfterEach,
  newTenant,
} from '../helpers/processes.js';

const { started, dirs } = cleanedAfterEach();
// A worker's death is a database matter: on S3 (the s3 project) test/s3/scale.test.ts kills a worker
// mid-run through the whole deployment, and these two run on the local engines only.
const workerDeaths = describe.skipIf(blobEngine === 's3');

/** A worker started on the deployment and left stopped once the run has done `tasks` of its tasks. */
async function workerMidRun(
  dataDir: string,
  env: Record<string, string>,
  look: ReturnType<typeof runReader>,
  tasks: number,
) {
  const worker = startWorkerProcess(dataDir, env);
  started.push(worker);
  const seen = await runInSlices(worker, look, (r) => r.completed_tasks >= tasks, 30_000);
  return { worker, seen };
}

workerDeaths('a worker killed mid-run', () => {
  it('the run finishes after restart with correct counters and one ledger booking', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'crash');
    // the API alone: runs are left to separate worker processes
    const server = await startServerProcess(dataDir, port(), { PARSER_THREADS: '0' });
    started.push(server);
    // the worker runs in slices until it has done some pages (runInSlices), so it is mid-run when killed
    const pages = 1000;
    const fileId = await uploadWhole(server.url, tenant.token, await textPdf(pages));
    const run = (await call(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId })).body
      .data;

    // short enough that the second worker takes the run over soon after the kill; long enough that a worker
    // starved of CPU on a loaded machine still renews it (at 1 s, a run on a machine loaded past the suite's
    // own load once ended 'failed' before the kill); and tasks that may take long, as the worker runs in
    // slices (a stopped process's timers still count the time)
    const workerEnv = { RUN_LEASE_MS: '3000', PARSER_THREADS: '1', TASK_TIMEOUT_MS: '120000' };
    const { worker: first, seen } = await workerMidRun(
      dataDir,
      workerEnv,
      runReader(server.url, tenant.token, run.id),
      20,
    );
    expect(seen.status, JSON.stringify(seen)).toBe('running');
    expect(seen.completed_tasks).toBeLessThan(pages);
    await first.kill('SIGKILL');

    const second = startWorkerProcess(dataDir, workerEnv);
    started.push(second);
    const last = await pollRun(server.url, tenant.token, run.id, finished, 60_000);
    expect(last).toMatchObject({
      status: 'succeeded',
      total_tasks: pages + 1,
      completed_tasks: pages + 1,
      failed_tasks: 0,
      progress: 100,
      points_consumed: 2 * pages,
      attempt: 1,
    });
    const ledger = (
      await call(server.url, tenant.token, 'GET', '/api/open/finance/transactions?transaction_type=tech')
    ).body;
    expect(ledger.data.filter((t: { run_id: string }) => t.run_id === run.id)).toHaveLength(1);
    expect(ledger.data[0].amount).toBe(2 * pages * 10);
  });
});

workerDeaths('a worker stopped with SIGTERM mid-run', () => {
  it('hands the run back at once: another worker finishes it long before the lease would lapse', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'stop');
    const server = await startServerProcess(dataDir, port(), { PARSER_THREADS: '0' });
    started.push(server);
    // the worker runs in slices until it has done some pages (runInSlices), so it is mid-run when stopped
    const pages = 1000;
    const fileId = await uploadWhole(server.url, tenant.token, await textPdf(pages));
    const run = (await call(server.url, tenant.token, 'POST', '/api/open/runs', { file_id: fileId })).body
      .data;
    // a lease far longer than the test: only the release can explain a quick takeover; and tasks that may
    // take long (CI's loaded machine once took past the default 10 s on one and failed the run)
    const workerEnv = { RUN_LEASE_MS: '120000', PARSER_THREADS: '1', TASK_TIMEOUT_MS: '120000' };
    const { worker: first, seen } = await workerMidRun(
      dataDir,
      workerEnv,
      runReader(server.url, tenant.token, run.id),
      10,
    );
    expect(seen.status, JSON.stringify(seen)).toBe('running');
    // the signal waits while the worker is stopped, and is its first news once it continues
    const exited = first.kill('SIGTERM');
    first.child.kill('SIGCONT');
    await exited;
    expect(first.child.exitCode).toBe(0);

    const second = startWorkerProcess(dataDir, workerEnv);
    started.push(second);
    const last = await pollRun(server.url, tenant.token, run.id, finished, 30_000);
    expect(last).toMatchObject({ status: 'succeeded', completed_tasks: pages + 1, failed_tasks: 0 });
    const ledger = (await call(server.url, tenant.token, 'GET', '/api/open/finance/transactions')).body;
    expect(ledger.data.filter((t: { run_id: string }) => t.run_id === run.id)).toHaveLength(1);
  });
});

// What a killed server leaves of an upload is the engine's and the file store's: the sqlite project checks it
// on the local disk and the s3 project on PostgreSQL with S3, and the postgres project skips it where the s3
// project runs (tag 'both-stores', vitest.config.ts), as it would check a third pair.
describe('a server killed during an upload', { tags: ['both-stores'] }, () => {
  it('keeps the parts already acknowledged and finishes after restart', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'crash');
    const PART = partSize(64 * 1024);
    const env = { PARSER_THREADS: '1', UPLOAD_PART_SIZE: String(PART) };
    const p = port();
    let server = await startServerProcess(dataDir, p, env);
    started.push(server);
    // five parts: the form as it is on local disk, padded to five of S3's 5 MiB parts on S3
    const form = readPdf('real/cups-filters__form_english.pdf');
    const bytes = blobEngine === 's3' ? await padPdf(form, 4 * PART + 20_000) : form;
    const upload = (
      await call(server.url, tenant.token, 'POST', '/api/open/uploads', {
        file_name: 'form.pdf',
        size_bytes: bytes.length,
        sha256: sha256(bytes),
      })
    ).body.data;
    const part = (n: number) => bytes.subarray((n - 1) * upload.part_size, n * upload.part_size);
    const sendPart = (n: number) =>
      call(
        server.url,
        tenant.token,
        'PUT',
        `/api/open/uploads/${upload.upload_id}/parts/${n}`,
        undefined,
        part(n),
      );
    for (const n of [1, 2]) await sendPart(n);
    await server.kill('SIGKILL');

    server = await startServerProcess(dataDir, p, env);
    started.push(server);
    const state = (await call(server.url, tenant.token, 'GET', `/api/open/uploads/${upload.upload_id}`)).body
      .data;
    expect(state.missing_parts).toEqual([3, 4, 5]);
    expect(state.parts.map((x: { sha256: string }) => x.sha256)).toEqual([sha256(part(1)), sha256(part(2))]);
    for (const n of [3, 4, 5]) await sendPart(n);
    const done = await call(server.url, tenant.token, 'POST', '/api/open/uploads/complete', {
      upload_id: upload.upload_id,
    });
    expect(done.body.data.sha256).toBe(sha256(bytes));
  });

  it('a kill during complete leaves either the finished file or the pending upload, never half a file', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const tenant = await newTenant(dataDir, 'crash');
    const PART = partSize(256 * 1024);
    // a server killed inside complete leaves its lease on the upload: the next one waits it out
    const env = { PARSER_THREADS: '1', UPLOAD_PART_SIZE: String(PART), UPLOAD_LEASE_MS: '1000' };
    const p = port();
    const scanned = readPdf('derived/scanned-6p-imageonly__from-install.en.pdf');
    const bytes = blobEngine === 's3' ? await padPdf(scanned, 2 * PART + 20_000) : scanned;
    // five moments of the completion on the local disk, shared by the two database engines (whose commit
    // ends it the same way); on S3, whose every step is a request, three. Widening by hand:
    // CRASH_DELAYS_MS=0,3,10,30,80
    const delays =
      process.env.CRASH_DELAYS_MS?.split(',').map(Number) ??
      (blobEngine === 's3' || engine === 'sqlite' ? [0, 10, 80] : [3, 30]);
    for (const delayMs of delays) {
      let server = await startServerProcess(dataDir, p, env);
      started.push(server);
      const upload = (
        await call(server.url, tenant.token, 'POST', '/api/open/uploads', {
          file_name: 's.pdf',
          size_bytes: bytes.length,
        })
      ).body.data;
      for (let n = 1; n <= upload.part_count; n++) {
        const part = bytes.subarray((n - 1) * upload.part_size, n * upload.part_size);
        await call(
          server.url,
          tenant.token,
          'PUT',
          `/api/open/uploads/${upload.upload_id}/parts/${n}`,
          undefined,
          part,
        );
      }
      const completing = call(server.url, tenant.token, 'POST', '/api/open/uploads/complete', {
        upload_id: upload.upload_id,
      }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await server.kill('SIGKILL');
      await completing;

      server = await startServerProcess(dataDir, p, env);
      started.push(server);
      const state = (await call(server.url, tenant.token, 'GET', `/api/open/uploads/${upload.upload_id}`))
        .body.data;
      if (state.status === 'pending') {
        // nothing was lost: completing again works
        const done = await call(server.url, tenant.token, 'POST', '/api/open/uploads/complete', {
          upload_id: upload.upload_id,
        });
        expect(done.status).toBe(200);
      }
      const final = (await call(server.url, tenant.token, 'GET', `/api/open/uploads/${upload.upload_id}`))
        .body.data;
      const file = (await call(server.url, tenant.token, 'GET', `/api/open/files/${final.file_id}`)).body
        .data;
      expect(file.sha256).toBe(sha256(bytes));
      await server.kill('SIGTERM');
    }
    // every file row points at whole bytes; whatever else is on disk is not visible through the API
    const rows = await queryDeployment<{ storage_key: string; sha256: string }>(
      dataDir,
      'SELECT storage_key, sha256 FROM files',
    );
    expect(rows).toHaveLength(delays.length);
    for (const row of rows) expect(sha256(await readBlob(dataDir, row.storage_key))).toBe(row.sha256);
    for await (const key of (await deploymentBlobs(dataDir)).keys(`files/${tenant.tenant_id}`))
      expect(sha256(await readBlob(dataDir, key))).toBe(sha256(bytes));
  });
});
