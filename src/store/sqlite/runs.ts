import type { HeldKey } from '../held-key.js';
import type {
  ClaimedRun,
  RunJson,
  LedgerEntry,
  RunFilter,
  RunOutcome,
  RunProgress,
  RunRepo,
  RunOptions,
  RunRow,
  RunStatus,
} from '../types.js';
import type { Db } from './database.js';
import { outboxWriter } from './events.js';
import { effectRecorder } from './idempotency.js';
import { ledgerWriter } from './ledger.js';
import {
  BLOCK_BITS,
  cancelAssignments,
  DEEP_OFFSET,
  ENDED_STATUSES,
  ACTIVE_STATUSES,
  fairTenantsQuery,
  isActive,
  likePattern,
  matchesNothing,
  pageOf,
  rerunAssignments,
  RUN_COLUMNS,
  rowsToFetch,
  statusList,
} from '../runs-core.js';
import { idOfRunJson, RUN_VIEW_VERSION, runJson } from '../../records/run.js';

export type RunRecord = Omit<RunRow, 'output_files' | 'options'> & { output_files: string; options: string };

export function toRun(row: RunRecord): RunRow;
export function toRun(row: RunRecord | undefined): RunRow | undefined;
export function toRun(row: RunRecord | undefined): RunRow | undefined {
  return (
    row && {
      ...row,
      output_files: JSON.parse(row.output_files) as string[],
      options: JSON.parse(row.options) as RunOptions,
    }
  );
}

/**
 * Every write of a run writes its JSON (`runJson`) into `record` as well, and the list reads that: one string
 * per row instead of its 23 columns.
 */
export function sqliteRuns(db: Db): RunRepo {
  const writeLedger = ledgerWriter(db);
  const recordEffect = effectRecorder(db);
  const outbox = outboxWriter(db);
  const columns = RUN_COLUMNS.join(', ');

  const nextSeq = db.prepare(
    'UPDATE tenants SET run_seq = run_seq + 1 WHERE id = ? RETURNING run_seq AS seq',
  );
  const insertRun = db.prepare(
    `INSERT INTO runs (seq, ${columns}, record, record_view)
     VALUES (@seq, ${RUN_COLUMNS.map((c) => `@${c}`).join(', ')}, @record, ${RUN_VIEW_VERSION})`,
  );
  const writeRecord = db.prepare(
    `UPDATE runs SET record = ?, record_view = ${RUN_VIEW_VERSION} WHERE id = ?`,
  );
  /** The run as it is now in this transaction, its stored JSON rewritten; the JSON is returned for its event. */
  const saved = (runId: string): { run: RunRow; record: RunJson } => {
    const run = toRun(getById.get(runId) as RunRecord)!;
    const record = runJson(run);
    writeRecord.run(record, runId);
    return { run, record };
  };
  const enqueue = db.prepare(
    'INSERT INTO run_queue (id, run_id, tenant_id, attempt, enqueued_at) VALUES (?, ?, ?, ?, ?)',
  );
  const count = db.prepare(
    `INSERT INTO run_counts (tenant_id, status, target, n) VALUES (?, ?, ?, ?)
     ON CONFLICT (tenant_id, status, target) DO UPDATE SET n = n + excluded.n`,
  );
  const get = db.prepare(`SELECT ${columns} FROM runs WHERE id = ? AND tenant_id = ?`);
  const getById = db.prepare(`SELECT ${columns} FROM runs WHERE id = ?`);
  const lastSeq = db.prepare('SELECT run_seq AS n FROM tenants WHERE id = ?');
  const seqOf = db.prepare('SELECT seq FROM runs WHERE id = ? AND tenant_id = ?').pluck();
  const pageBySeq = db
    .prepare(`SELECT record FROM runs WHERE tenant_id = ? AND seq <= ? ORDER BY seq DESC LIMIT ?`)
    .pluck();
  const countTotals = db.prepare(
    `SELECT COALESCE(SUM(n), 0) AS n FROM run_counts
     WHERE tenant_id = @tenant AND (@status IS NULL OR status = @status) AND (@target IS NULL OR target = @target)`,
  );
  type Statement = ReturnType<Db['prepare']>;
  const filtered = new Map<string, { page: Statement; deepPage: Statement; total?: Statement }>();
  for (const byStatus of [false, true]) {
    for (const byTarget of [false, true]) {
      for (const byKeyword of [false, true]) {
        const where = ['tenant_id = @tenant', 'seq < @before'];
        if (byStatus) where.push('status = @status');
        if (byTarget) where.push('target = @target');
        if (byKeyword) where.push(`(id = @keyword OR input_file_name LIKE @pattern ESCAPE '\\')`);
        const clause = where.join(' AND ');
        filtered.set(`${byStatus}${byTarget}${byKeyword}`, {
          page: db
            .prepare(`SELECT record FROM runs WHERE ${clause} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
            .pluck(),
          // past the first pages, OFFSET skips rows in an inner query that the (tenant, status/target, seq)
          // indexes cover: a skipped row costs an index step, not a table lookup
          deepPage: db
            .prepare(
              `SELECT record FROM runs WHERE rowid IN (
                 SELECT rowid FROM runs WHERE ${clause} ORDER BY seq DESC LIMIT @limit OFFSET @offset)
               ORDER BY seq DESC`,
            )
            .pluck(),
          // a keyword cannot be counted ahead of time: its total is an exact COUNT over the tenant's runs
          total: byKeyword ? db.prepare(`SELECT COUNT(*) AS n FROM runs WHERE ${clause}`) : undefined,
        });
      }
    }
  }

  // the block that holds the filtered row at @offset, and how many filtered rows the newer blocks hold
  const blockAt = new Map<string, Statement>();
  for (const [key, where] of [
    ['truefalse', 'status = @status'],
    ['falsetrue', 'target = @target'],
    ['truetrue', 'status = @status AND target = @target'],
  ] as const) {
    blockAt.set(
      key,
      db.prepare(
        `SELECT block, through - n AS skipped FROM (
           SELECT block, SUM(n) AS n, SUM(SUM(n)) OVER (ORDER BY block DESC) AS through
           FROM run_blocks WHERE tenant_id = @tenant AND ${where} GROUP BY block)
         WHERE through > @offset ORDER BY block DESC LIMIT 1`,
      ),
    );
  }

  const resetForRerun = db.prepare(
    `UPDATE runs SET ${rerunAssignments('@queue')}
     WHERE id = @id AND tenant_id = @tenant AND status IN (${statusList(ENDED_STATUSES)})`,
  );
  const queuedCount = db
    .prepare(`SELECT COALESCE(SUM(n), 0) FROM run_counts WHERE tenant_id = ? AND status = 'queued'`)
    .pluck();
  // one writer at a time: the fairest tenant's oldest waiting entry is free
  const nextTenant = db.prepare(fairTenantsQuery('@now', 1));
  const nextAvailable = db.prepare(
    `SELECT q.id AS queueMessageId, q.run_id AS runId, q.claims AS claims FROM run_queue q
     WHERE q.tenant_id = @tenant AND q.done_at IS NULL AND (q.lease_until IS NULL OR q.lease_until < @now)
     ORDER BY q.enqueued_at LIMIT 1`,
  );
  const cancelRun = db.prepare(
    `UPDATE runs SET ${cancelAssignments('@at')}
     WHERE id = @id AND tenant_id = @tenant AND status IN (${statusList(ACTIVE_STATUSES)})`,
  );
  const closeEntry = db.prepare(
    'UPDATE run_queue SET done_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND done_at IS NULL',
  );
  const takeLease = db.prepare(
    'UPDATE run_queue SET lease_owner = ?, lease_until = ?, claims = claims + 1 WHERE id = ?',
  );
  const markRunning = db.prepare(
    `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, ?) WHERE id = ? AND queue_message_id = ?`,
  );
  const storageKey = db.prepare('SELECT storage_key AS key FROM files WHERE id = ?');
  const renew = db.prepare(
    'UPDATE run_queue SET lease_until = ? WHERE id = ? AND lease_owner = ? AND done_at IS NULL',
  );
  const release = db.prepare(
    `UPDATE run_queue SET lease_owner = NULL, lease_until = NULL, claims = claims - 1
     WHERE id = ? AND lease_owner = ? AND done_at IS NULL`,
  );
  const leaseHeld = db.prepare(
    'SELECT run_id AS runId FROM run_queue WHERE id = ? AND lease_owner = ? AND done_at IS NULL',
  );
  const progress = db.prepare(
    `UPDATE runs SET total_tasks = @total_tasks, completed_tasks = MAX(completed_tasks, @completed_tasks),
       failed_tasks = MAX(failed_tasks, @failed_tasks), progress = MAX(progress, @progress)
     WHERE id = @id AND queue_message_id = @queue`,
  );
  const finishRun = db.prepare(
    `UPDATE runs SET status = @status, total_tasks = @total_tasks, completed_tasks = @completed_tasks,
       failed_tasks = @failed_tasks, progress = @progress, points_consumed = @points_consumed,
       output_files = @output_files, error = @error, error_code = @error_code, completed_at = @completed_at
     WHERE id = @id AND queue_message_id = @queue`,
  );
  const markDone = db.prepare('UPDATE run_queue SET done_at = ?, lease_until = NULL WHERE id = ?');

  const statusTotals = db.prepare('SELECT status, SUM(n) AS n FROM run_counts GROUP BY status');
  const waiting = db.prepare(
    `SELECT COUNT(*) AS n, MIN(enqueued_at) AS oldest FROM run_queue
     WHERE done_at IS NULL AND (lease_until IS NULL OR lease_until < ?)`,
  );

  const adjustCount = (tenantId: string, status: RunStatus, target: string, delta: number) =>
    count.run(tenantId, status, target, delta);

  const create = db.transaction((run: RunRow, maxQueued: number, effect?: HeldKey) => {
    if ((queuedCount.get(run.tenant_id) as number) >= maxQueued) return 'over_limit' as const;
    const { seq } = nextSeq.get(run.tenant_id) as { seq: number };
    const record = runJson(run);
    insertRun.run({
      ...run,
      seq,
      output_files: JSON.stringify(run.output_files),
      options: JSON.stringify(run.options),
      record,
    });
    enqueue.run(run.queue_message_id, run.id, run.tenant_id, run.attempt, run.created_at);
    adjustCount(run.tenant_id, run.status, run.target, 1);
    outbox.write(run.tenant_id, 'run.created', run.created_at, record);
    recordEffect(effect, run.id);
    return 'created' as const;
  });

  const rerun = db.transaction(
    (
      tenantId: string,
      runId: string,
      queueMessageId: string,
      at: string,
      maxQueued: number,
      effect?: HeldKey,
    ) => {
      const before = toRun(get.get(runId, tenantId) as RunRecord | undefined);
      if (!before) return undefined;
      if (isActive(before.status)) return 'conflict';
      if ((queuedCount.get(tenantId) as number) >= maxQueued) return 'over_limit';
      if (resetForRerun.run({ id: runId, tenant: tenantId, queue: queueMessageId }).changes === 0)
        return 'conflict';
      enqueue.run(queueMessageId, runId, tenantId, before.attempt + 1, at);
      adjustCount(tenantId, before.status, before.target, -1);
      adjustCount(tenantId, 'queued', before.target, 1);
      const after = saved(runId);
      outbox.write(tenantId, 'run.requeued', at, after.record);
      recordEffect(effect, runId);
      return after.run;
    },
  );

  const cancel = db.transaction((tenantId: string, runId: string, at: string, effect?: HeldKey) => {
    const before = toRun(get.get(runId, tenantId) as RunRecord | undefined);
    if (!before) return undefined;
    if (cancelRun.run({ id: runId, tenant: tenantId, at }).changes === 0) return 'conflict';
    closeEntry.run(at, before.queue_message_id);
    adjustCount(tenantId, before.status, before.target, -1);
    adjustCount(tenantId, 'cancelled', before.target, 1);
    const after = saved(runId);
    outbox.write(tenantId, 'run.cancelled', at, after.record);
    recordEffect(effect, runId);
    return after.run;
  });

  const claim = db.transaction(
    (workerId: string, now: string, leaseUntil: string): ClaimedRun | undefined => {
      const tenant = nextTenant.get({ now }) as { tenantId: string } | undefined;
      if (!tenant) return undefined;
      const next = nextAvailable.get({ tenant: tenant.tenantId, now }) as
        { queueMessageId: string; runId: string; claims: number } | undefined;
      if (!next) return undefined;
      takeLease.run(workerId, leaseUntil, next.queueMessageId);
      let run = toRun(getById.get(next.runId) as RunRecord)!;
      if (run.status === 'queued') {
        markRunning.run(now, next.runId, next.queueMessageId);
        adjustCount(run.tenant_id, 'queued', run.target, -1);
        adjustCount(run.tenant_id, 'running', run.target, 1);
        const after = saved(next.runId);
        outbox.write(run.tenant_id, 'run.started', now, after.record);
        run = after.run;
      }
      const file = storageKey.get(run.file_id) as { key: string };
      return { queueMessageId: next.queueMessageId, claims: next.claims + 1, run, storageKey: file.key };
    },
  );

  const saveProgress = db.transaction((queueMessageId: string, workerId: string, p: RunProgress): boolean => {
    const held = leaseHeld.get(queueMessageId, workerId) as { runId: string } | undefined;
    if (!held) return false;
    if (progress.run({ ...p, id: held.runId, queue: queueMessageId }).changes === 1) saved(held.runId);
    return true;
  });

  const finish = db.transaction(
    (queueMessageId: string, workerId: string, outcome: RunOutcome, booking: LedgerEntry | null): boolean => {
      const held = leaseHeld.get(queueMessageId, workerId) as { runId: string } | undefined;
      if (!held) return false;
      const before = toRun(getById.get(held.runId) as RunRecord)!;
      finishRun.run({
        ...outcome,
        output_files: JSON.stringify(outcome.output_files),
        id: held.runId,
        queue: queueMessageId,
      });
      markDone.run(outcome.completed_at, queueMessageId);
      adjustCount(before.tenant_id, before.status, before.target, -1);
      adjustCount(before.tenant_id, outcome.status, before.target, 1);
      outbox.write(before.tenant_id, `run.${outcome.status}`, outcome.completed_at, saved(held.runId).record);
      // the queue entry id makes the booking unique: a retried finish cannot book twice
      if (booking) writeLedger(booking, queueMessageId);
      return true;
    },
  );

  return {
    async create(run, maxQueued, effect) {
      return create.immediate(run, maxQueued, effect);
    },
    async get(tenantId, runId) {
      return toRun(get.get(runId, tenantId) as RunRecord | undefined);
    },
    async list(tenantId, filter: RunFilter, limit, offset, startingAfter) {
      // a cursor is the run's per-tenant sequence number: the page is the runs below it
      let before = Number.MAX_SAFE_INTEGER;
      if (startingAfter !== undefined) {
        const seq = seqOf.get(startingAfter, tenantId) as number | undefined;
        if (seq === undefined) return undefined;
        before = seq;
      }
      if (matchesNothing(filter)) return { items: [], total: 0, lastId: null };
      const fetch = rowsToFetch(limit, startingAfter);
      const page = (items: RunJson[], total: number) => {
        const { shown, lastId } = pageOf(items, total, { limit, offset, startingAfter }, idOfRunJson);
        return { items: shown, total, lastId };
      };
      if (!filter.status && !filter.target && !filter.keyword) {
        const { n } = (lastSeq.get(tenantId) as { n: number } | undefined) ?? { n: 0 };
        const top = Math.min(n, before - 1) - offset;
        const items = top > 0 ? (pageBySeq.all(tenantId, top, fetch) as RunJson[]) : [];
        return page(items, n);
      }
      const key = `${!!filter.status}${!!filter.target}${!!filter.keyword}`;
      const statements = filtered.get(key)!;
      const params: Record<string, string | number> = { tenant: tenantId, before };
      if (filter.status) params.status = filter.status;
      if (filter.target) params.target = filter.target;
      if (filter.keyword) {
        params.keyword = filter.keyword;
        params.pattern = likePattern(filter.keyword);
      }
      let items: RunJson[];
      const locate = blockAt.get(`${!!filter.status}${!!filter.target}`);
      if (offset >= DEEP_OFFSET && !filter.keyword && startingAfter === undefined && locate) {
        // jump to the block holding the row at `offset`, then skip within that block only
        const at = locate.get({ ...params, offset }) as { block: number; skipped: number } | undefined;
        items = at
          ? (statements.deepPage.all({
              ...params,
              before: (at.block + 1) * 2 ** BLOCK_BITS,
              limit: fetch,
              offset: offset - at.skipped,
            }) as RunJson[])
          : [];
      } else {
        const statement = offset >= DEEP_OFFSET ? statements.deepPage : statements.page;
        items = statement.all({ ...params, limit: fetch, offset }) as RunJson[];
      }
      const counted = { ...params, before: Number.MAX_SAFE_INTEGER };
      const total = statements.total
        ? (statements.total.get(counted) as { n: number }).n
        : (
            countTotals.get({
              tenant: tenantId,
              status: filter.status ?? null,
              target: filter.target ?? null,
            }) as { n: number }
          ).n;
      return page(items, total);
    },
    async rerun(tenantId, runId, queueMessageId, at, maxQueued, effect) {
      return rerun.immediate(tenantId, runId, queueMessageId, at, maxQueued, effect);
    },
    async queueStats(now) {
      const byStatus = Object.fromEntries(
        (statusTotals.all() as { status: RunStatus; n: number }[]).map((r) => [r.status, r.n]),
      );
      const open = waiting.get(now) as { n: number; oldest: string | null };
      return { byStatus, waiting: open.n, oldestWaitingAt: open.oldest };
    },
    async cancel(tenantId, runId, at, effect) {
      return cancel.immediate(tenantId, runId, at, effect);
    },
    async claim(workerId, now, leaseUntil) {
      return claim.immediate(workerId, now, leaseUntil);
    },
    watch() {
      // SQLite cannot hear another process's commit: workers find its runs at their next poll
      return () => undefined;
    },
    async renewLease(queueMessageId, workerId, leaseUntil) {
      return renew.run(leaseUntil, queueMessageId, workerId).changes === 1;
    },
    async releaseLease(queueMessageId, workerId) {
      release.run(queueMessageId, workerId);
    },
    async saveProgress(queueMessageId, workerId, p: RunProgress) {
      return saveProgress.immediate(queueMessageId, workerId, p);
    },
    async finish(queueMessageId, workerId, outcome, booking) {
      return finish.immediate(queueMessageId, workerId, outcome, booking);
    },
  };
}
