import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, textPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const totals = async (h: Harness, status: string, token?: string) =>
  (await h.request('GET', `/api/open/runs?status=${status}&limit=1`, { token })).body.total as number;

describe('the queue without workers: caps and cancelling queued runs', { tags: ['two-processes'] }, () => {
  let h: Harness;
  let fileId: string;
  beforeAll(async () => {
    h = await startHarness({ PARSER_THREADS: '0', MAX_QUEUED_RUNS_PER_TENANT: '3' });
    fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
  });
  afterAll(() => h.close());

  it('MAX_QUEUED_RUNS_PER_TENANT: the third queued run is accepted, the fourth is 429 with Retry-After', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await h.request('POST', '/api/open/runs', { json: { file_id: fileId } });
      expect(created.status).toBe(201);
      ids.push(created.body.data.id);
    }
    const refused = await h.request('POST', '/api/open/runs', { json: { file_id: fileId } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.body).toMatchObject({ error: 'too_many_queued_runs', data: null });
    // the cap is per tenant: another tenant still queues
    const otherFile = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      token: h.other.token,
    });
    const other = await h.request('POST', '/api/open/runs', {
      json: { file_id: otherFile },
      token: h.other.token,
    });
    expect(other.status).toBe(201);

    // cancelling frees a place; a rerun of the cancelled run then fills it and the next rerun is refused
    const cancelled = await h.request('POST', `/api/open/runs/${ids[0]}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({
      id: ids[0],
      status: 'cancelled',
      error: 'The run was cancelled',
      error_code: 'cancelled',
      points_consumed: 0,
      output_files: [],
    });
    expect(cancelled.body.data.completed_at).not.toBeNull();
    expect(await totals(h, 'queued')).toBe(2);
    expect(await totals(h, 'cancelled')).toBe(1);
    const rerun = await h.request('POST', `/api/open/runs/${ids[0]}/rerun`);
    expect(rerun.status).toBe(200);
    expect(rerun.body.data).toMatchObject({ status: 'queued', attempt: 2, error: null });
    await h.request('POST', `/api/open/runs/${ids[1]}/cancel`);
    const full = await h.request('POST', `/api/open/runs/${ids[1]}/rerun`);
    expect(full.status).toBe(200);
    const over = await h.request('POST', `/api/open/runs/${ids[1]}/cancel`);
    expect(over.status).toBe(200);
    await h.request('POST', '/api/open/runs', { json: { file_id: fileId } });
    const refusedRerun = await h.request('POST', `/api/open/runs/${ids[1]}/rerun`);
    expect(refusedRerun.status).toBe(429);
    expect(await totals(h, 'queued')).toBe(3);
  });

  it("cancel: a finished run is 409, another tenant's run is 404, an unknown id is 404", async () => {
    const theirFile = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      token: h.other.token,
    });
    const response = await h.request('POST', '/api/open/runs', {
      json: { file_id: theirFile },
      token: h.other.token,
    });
    expect(response.status, response.text).toBe(201);
    const created = response.body.data;
    const foreign = await h.request('POST', `/api/open/runs/${created.id}/cancel`);
    expect(foreign.status).toBe(404);
    const unknown = await h.request('POST', '/api/open/runs/00000000-0000-4000-8000-000000000000/cancel');
    expect(unknown.status).toBe(404);
    const first = await h.request('POST', `/api/open/runs/${created.id}/cancel`, { token: h.other.token });
    expect(first.status).toBe(200);
    const again = await h.request('POST', `/api/open/runs/${created.id}/cancel`, { token: h.other.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('run_finished');
    // the owner's run list shows it cancelled; the caller's own list never saw it
    const theirs = await h.request('GET', `/api/open/runs?keyword=${created.id}`, { token: h.other.token });
    expect(theirs.body.data[0].status).toBe('cancelled');
    expect((await h.request('GET', `/api/open/runs?keyword=${created.id}`)).body.total).toBe(0);
  });
});

describe(
  'the queue with workers: cancelling a running run, fairness across tenants',
  { tags: ['two-processes'] },
  () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ PARSER_THREADS: '2', POINTS_PER_PAGE_PREFLIGHT: '2' });
    });
    afterAll(() => h.close());

    it('a running run stops when cancelled and books nothing', async () => {
      const fileId = await uploadPdf(h, await textPdf(300));
      const run = (
        await h.request('POST', '/api/open/runs', { json: { file_id: fileId, target: 'pdf-text' } })
      ).body.data;
      for (let i = 0; i < 200; i++) {
        const state = (await h.request('GET', `/api/open/runs/${run.id}`)).body.data;
        if (state.status === 'running' && state.completed_tasks > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const cancelled = await h.request('POST', `/api/open/runs/${run.id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe('cancelled');
      const progressAtCancel = cancelled.body.data.completed_tasks;
      expect(progressAtCancel).toBeLessThan(301);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = (await h.request('GET', `/api/open/runs/${run.id}`)).body.data;
      expect(after).toMatchObject({ status: 'cancelled', points_consumed: 0, output_files: [] });
      const ledger = await h.request(
        'GET',
        '/api/open/finance/transactions?transaction_type=tech&page_size=100',
      );
      expect(ledger.body.data.filter((t: { run_id: string }) => t.run_id === run.id)).toHaveLength(0);
      expect((await h.request('GET', `/api/open/runs/${run.id}/files/text.txt`)).status).toBe(404);
    });

    it("one tenant's backlog of 50 runs delays another tenant's run by at most about one run", async () => {
      const doc = await textPdf(8);
      const fileA = await uploadPdf(h, doc);
      const fileB = await uploadPdf(h, doc, { token: h.other.token });
      const backlog: string[] = [];
      // 50 runs: first in, first out, B would wait for more than ten of them on the four slots
      for (let i = 0; i < 50; i++) {
        backlog.push((await h.request('POST', '/api/open/runs', { json: { file_id: fileA } })).body.data.id);
      }
      // let the workers fill every slot with the backlog first
      await waitForRun(h, backlog[0]!);
      const created = (
        await h.request('POST', '/api/open/runs', { json: { file_id: fileB }, token: h.other.token })
      ).body.data;
      const runB = await waitForRun(h, created.id, h.other.token);
      const waitedB = Date.parse(runB.completed_at) - Date.parse(created.created_at);

      const durations: number[] = [];
      for (const id of backlog.slice(0, 12)) {
        const run = await waitForRun(h, id);
        durations.push(Date.parse(run.completed_at) - Date.parse(run.started_at));
      }
      durations.sort((a, b) => a - b);
      const oneRun = durations[Math.floor(durations.length / 2)]!;
      expect(waitedB, `B waited ${waitedB} ms; one of A's runs takes ${oneRun} ms`).toBeLessThanOrEqual(
        2 * oneRun,
      );

      // the rest of the backlog is cancelled while queued: counters stay exact
      for (const id of backlog) await h.request('POST', `/api/open/runs/${id}/cancel`);
      const counts = await Promise.all(
        ['queued', 'running', 'succeeded', 'cancelled'].map((s) => totals(h, s)),
      );
      const all = (await h.request('GET', '/api/open/runs?limit=1')).body.total;
      expect(counts.reduce((a, b) => a + b, 0) + (await totals(h, 'failed'))).toBe(all);
      expect(counts[0]).toBe(0);
    });
  },
);
