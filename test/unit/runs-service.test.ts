/**
 * The run service's rules against typed fakes of its repositories and blob store: what it decides
 * itself (options per target, limits, statuses to errors, a missing output), without a database. The HTTP
 * suites check the same answers end to end on every engine.
 */
import { describe, expect, it } from 'vitest';
import { BlobMissingError } from '../../src/blobs/blob-store.js';
import { Runs } from '../../src/runs/service.js';
import type { FileRow, Principal, RunRow } from '../../src/store/types.js';
import type { Clock } from '../../src/kernel/time.js';
import { failure, newTestService } from '../helpers/fakes.js';

const principal: Principal = { tenantId: 't1', userId: 'u1', tokenId: 'k1', scopes: null };
const clock: Clock = { now: () => new Date('2026-11-26T10:00:00.000Z') };
const file = { id: 'f1', tenant_id: 't1', file_name: 'a.pdf' } as FileRow;

/** The run service's store as typed fakes (test/helpers/fakes.ts): `answers` decides what rerun and cancel find. */
function fakeStore(answers: { create?: 'created' | 'over_limit'; rerun?: unknown; cancel?: unknown } = {}) {
  const created: RunRow[] = [];
  const { sut: store, mocks } = newTestService(({ store }) => store);
  // a request without an idempotency key creates its run as a unit of its own (store.runs.create)
  mocks.store.runs.create.mockImplementation(async (run) => {
    if ((answers.create ?? 'created') === 'created') created.push(run);
    return answers.create ?? 'created';
  });
  mocks.store.runs.get.mockImplementation(async (tenantId, runId) =>
    created.find((r) => r.tenant_id === tenantId && r.id === runId),
  );
  mocks.unit.runs.rerun.mockImplementation(
    async () => answers.rerun as RunRow | 'conflict' | 'over_limit' | undefined,
  );
  mocks.unit.runs.cancel.mockImplementation(async () => answers.cancel as RunRow | 'conflict' | undefined);
  mocks.store.uploads.getFile.mockImplementation(async (tenantId, id) =>
    tenantId === 't1' && id === 'f1' ? file : undefined,
  );
  // a file id that is no file is looked up as an upload's id, for the 404 to say which id to pass
  mocks.store.uploads.get.mockImplementation(async () => undefined);
  return { store, created };
}

const noBlobs = (() => {
  const { sut: blobs, mocks } = newTestService(({ blobs }) => blobs);
  mocks.blobs.open.mockImplementation(async () => {
    throw new BlobMissingError('gone');
  });
  return blobs;
})();

describe('the run service', () => {
  it('creates a queued run of a file of the tenant, with its options, and signals it', async () => {
    const { store, created } = fakeStore();
    const runs = new Runs(store, noBlobs, clock, 10);
    let signalled = 0;
    runs.queued.listen(() => signalled++);
    const run = await runs.create(principal, 'f1', 'pdf-print', { min_ppi: 150 });
    expect(run).toMatchObject({
      status: 'queued',
      target: 'pdf-print',
      options: { min_ppi: 150 },
      input_file_name: 'a.pdf',
      attempt: 1,
      created_at: '2026-11-26T10:00:00.000Z',
    });
    expect(created).toEqual([run]);
    expect(signalled).toBe(1);
  });

  it("refuses an option the target does not take, at the option's loc, before anything is read", async () => {
    const { store, created } = fakeStore();
    const error = await failure(
      new Runs(store, noBlobs, clock, 10).create(principal, 'f1', 'pdf-text', { cmyk: true }),
    );
    expect(error.status).toBe(422);
    expect(error.detail).toEqual([
      {
        loc: ['body', 'options', 'cmyk'],
        msg: 'Extra inputs are not permitted: target pdf-text takes no option cmyk',
        type: 'extra_forbidden',
      },
    ]);
    expect(created).toEqual([]);
  });

  it("another tenant's file is not found; a full queue is 429 with Retry-After", async () => {
    const { store } = fakeStore();
    const other = { ...principal, tenantId: 't2' };
    expect((await failure(new Runs(store, noBlobs, clock, 10).create(other, 'f1'))).error).toBe('not_found');
    const full = fakeStore({ create: 'over_limit' });
    const error = await failure(new Runs(full.store, noBlobs, clock, 10).create(principal, 'f1'));
    expect(error).toMatchObject({ status: 429, error: 'too_many_queued_runs' });
    expect(error.headers).toEqual({ 'Retry-After': '10' });
  });

  it('turns what the store found into the contract errors of rerun and cancel', async () => {
    const runsOf = (answers: Parameters<typeof fakeStore>[0]) =>
      new Runs(fakeStore(answers).store, noBlobs, clock, 10);
    expect((await failure(runsOf({ rerun: undefined }).rerun('t1', 'r'))).error).toBe('not_found');
    expect((await failure(runsOf({ rerun: 'conflict' }).rerun('t1', 'r'))).error).toBe('run_not_finished');
    expect((await failure(runsOf({ rerun: 'over_limit' }).rerun('t1', 'r'))).error).toBe(
      'too_many_queued_runs',
    );
    expect((await failure(runsOf({ cancel: undefined }).cancel('t1', 'r'))).error).toBe('not_found');
    expect((await failure(runsOf({ cancel: 'conflict' }).cancel('t1', 'r'))).error).toBe('run_finished');
  });

  it('an output listed in the record whose bytes are gone is a 404, and is told as data loss', async () => {
    const { store } = fakeStore();
    const runs = new Runs(store, noBlobs, clock, 10);
    const run = await runs.create(principal, 'f1');
    (run as { output_files: string[] }).output_files.push('report.json');
    const missing: unknown[] = [];
    runs.outputMissing.listen((what) => missing.push(what));
    expect((await failure(runs.openOutput('t1', run.id, 'report.json'))).error).toBe('not_found');
    expect(missing).toEqual([{ run_id: run.id, name: 'report.json' }]);
    expect((await failure(runs.openOutput('t1', run.id, 'report.html'))).error).toBe('not_found');
  });
});
