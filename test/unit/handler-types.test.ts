/**
 * A handler is typed by its operation: these declarations compile only while the wrong ones below stay
 * errors (`npm run typecheck` fails on an unused @ts-expect-error), and the right ones run.
 */
import { describe, expect, it } from 'vitest';
import { authed, created, list, ok } from '../../src/http/handler.js';
import type { RunJson } from '../../src/records/run.js';
import type { TransactionJson } from '../../src/records/transaction.js';
import type { Schemas } from '../../src/contract/schemas.js';

const run = {} as Schemas['Run'];
const upload = {} as Schemas['Upload'];
const runs = (pageSize: number) =>
  list([] as RunJson[], { next_cursor: null }, { total: 0, page: 1, page_size: pageSize });
const transactions = async () => list([] as TransactionJson[], { next_cursor: null });
const noOnceOnly = { needsNoRecord: 'a test of the types alone', finalConflicts: [] };

describe('typed handlers', () => {
  it('take their operation parameters and body, and answer only its declared 2xx shapes', () => {
    const handlers = [
      authed('getRun', {}, async ({ params }) => ok({ ...run, id: params.run_id })),
      // @ts-expect-error: getRun answers a Run, not an Upload
      authed('getRun', {}, async () => ok(upload)),
      // @ts-expect-error: getRun answers 200, not 201
      authed('getRun', {}, async () => created(run)),
      // @ts-expect-error: getRun has no path parameter upload_id
      authed('getRun', {}, async ({ params }) => ok({ ...run, id: params.upload_id })),
      authed('createRun', { onceOnly: noOnceOnly }, async ({ body }) =>
        created({ ...run, file_id: body.file_id }),
      ),
      // @ts-expect-error: createRun's body has no upload_id
      authed('createRun', {}, async ({ body }) => created({ ...run, file_id: body.upload_id })),
      authed('listRuns', { defaults: ['limit'] }, async ({ query }) => runs(query.limit)),
      // @ts-expect-error: a run list is made of runs' JSON, not transactions'
      authed('listRuns', {}, transactions),
      // @ts-expect-error: `limit` may be missing unless the handler relies on its default
      authed('listRuns', {}, async ({ query }) => runs(query.limit)),
      // @ts-expect-error: no query parameter `nothing` to rely on a default of
      authed('listRuns', { defaults: ['nothing'] }, async () => runs(1)),
    ];
    expect(handlers.map((handler) => handler.operationId)).toContain('listRuns');
  });
});
