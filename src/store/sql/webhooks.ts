import type {
  AttemptRecord,
  EventType,
  WebhookEndpointRow,
  ClaimedDelivery,
  ClaimRequest,
  DeliveryAttempt,
  EventJson,
  WebhookChanges,
  WebhookRepo,
} from '../types.js';
import { eventTypesColumn } from './outbox.js';
import type { SqlDialect, SqlSession, SqlText, SqlValue } from './dialect.js';
import { ofUnitTenant, type WorkSession } from './unit-of-work.js';

export interface EndpointRecord extends Omit<WebhookEndpointRow, 'events'> {
  events: string | null;
}

export function toEndpoint(row: EndpointRecord): WebhookEndpointRow;
export function toEndpoint(row: EndpointRecord | undefined): WebhookEndpointRow | undefined;
export function toEndpoint(row: EndpointRecord | undefined): WebhookEndpointRow | undefined {
  if (!row) return undefined;
  return {
    ...row,
    events: row.events === null ? null : (row.events.split(',').filter(Boolean) as EventType[]),
  };
}

export const ENDPOINT_COLUMNS = `id, tenant_id, url, events, description, status, secret, previous_secret,
  previous_secret_until, failing_since, created_at, api_version`;

/** A delivery's columns, with its event's and its endpoint's, as both engines' claims select them. */
export interface DeliveryRecord extends EndpointRecord {
  event_id: string;
  event_type: EventType;
  body: string;
  attempts: number;
}

/** A due delivery a claim may take. */
export interface DueDelivery {
  endpoint: string;
  event: string;
}

/** The leases in force, per endpoint and per tenant, from rows of (endpoint, tenant, count). */
export function tallyLeases(leased: { endpoint: string; tenant: string; n: number }[]) {
  const perEndpoint = new Map(leased.map((l) => [l.endpoint, l.n]));
  const perTenant = new Map<string, number>();
  for (const l of leased) perTenant.set(l.tenant, (perTenant.get(l.tenant) ?? 0) + l.n);
  return { perEndpoint, perTenant };
}

/**
 * Both engines' fair pick: the tenants' queues in the order given (the fewest under lease first), one
 * delivery per tenant per round, never more than `perEndpoint` under lease for one endpoint (`leased` is
 * counted up as deliveries are picked), until `max` are taken.
 */
export function pickFairly(
  queues: DueDelivery[][],
  leased: Map<string, number>,
  perEndpoint: number,
  max: number,
): DueDelivery[] {
  const picked: DueDelivery[] = [];
  for (let any = true; any && picked.length < max;) {
    any = false;
    for (const queue of queues) {
      while (queue.length > 0 && picked.length < max) {
        const next = queue.shift()!;
        const held = leased.get(next.endpoint) ?? 0;
        if (held >= perEndpoint) continue;
        leased.set(next.endpoint, held + 1);
        picked.push(next);
        any = true;
        break;
      }
    }
  }
  return picked;
}

const E_COLUMNS = ENDPOINT_COLUMNS.split(',')
  .map((c) => `e.${c.trim()}`)
  .join(', ');

/** A due delivery a claim may take, with its tenant. */
export type DueCandidate = DueDelivery & { tenant_id: string };

/**
 * The one read of a claim whose fast form differs between the engines: the soonest due deliveries of each
 * enabled endpoint of `tenants` that is not in `full`, at most `perEndpoint` each, soonest first overall, and
 * none another claimer holds. PostgreSQL walks every endpoint in one statement (LATERAL, SKIP LOCKED);
 * SQLite, which has neither, one statement per endpoint, each an index walk on the connection it owns.
 */
export type DueCandidates = (
  tx: SqlSession,
  text: SqlText,
  tenants: string[],
  now: string,
  full: ReadonlySet<string>,
  perEndpoint: number,
) => Promise<DueCandidate[]>;

/** Attempts written by one statement at most (9 values each: within both engines' limits on parameters). */
const ATTEMPT_ROWS = 64;

/** Placeholders for `rows` rows of `columns` values each: `(?, ?), (?, ?)`. */
function valuesList(rows: number, columns: number): string {
  const row = `(${new Array<string>(columns).fill('?').join(', ')})`;
  return new Array<string>(rows).fill(row).join(', ');
}

const endpointAfter = async (tx: SqlSession, tenantId: string, endpointId: string) =>
  toEndpoint(
    await tx.get<EndpointRecord>(
      `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND tenant_id = ?`,
      [endpointId, tenantId],
    ),
  );

/** What a unit of work changes of the tenant's webhook endpoints, in its transaction `tx`. */
export function sqlWebhookChanges(sql: SqlDialect, tx: WorkSession, tenantId: string): WebhookChanges {
  return {
    async create(endpoint, max) {
      ofUnitTenant(endpoint, tenantId);
      // one creation at a time per tenant: the count and the insert cannot interleave with another's
      await sql.takeTurn(tx, `webhooks:${tenantId}`);
      const counted = await tx.get<{ n: number }>(
        'SELECT CAST(COUNT(*) AS integer) AS n FROM webhook_endpoints WHERE tenant_id = ?',
        [tenantId],
      );
      if (counted!.n >= max) return 'over_limit';
      await tx.run(
        `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          endpoint.id,
          endpoint.tenant_id,
          endpoint.url,
          eventTypesColumn(endpoint.events),
          endpoint.description,
          endpoint.status,
          endpoint.secret,
          endpoint.previous_secret,
          endpoint.previous_secret_until,
          endpoint.failing_since,
          endpoint.created_at,
          endpoint.api_version,
        ],
      );
      return 'created';
    },
    async rotate(endpointId, secret, previousUntil) {
      const changed = await tx.run(
        `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?
         WHERE id = ? AND tenant_id = ?`,
        [previousUntil, secret, endpointId, tenantId],
      );
      return changed === 0 ? undefined : endpointAfter(tx, tenantId, endpointId);
    },
    async enable(endpointId) {
      const changed = await tx.run(
        `UPDATE webhook_endpoints SET status = 'enabled', failing_since = NULL WHERE id = ? AND tenant_id = ?`,
        [endpointId, tenantId],
      );
      return changed === 0 ? undefined : endpointAfter(tx, tenantId, endpointId);
    },
  };
}

export function sqlWebhooks(sql: SqlDialect, dueCandidates: DueCandidates): WebhookRepo {
  /** An attempt's delivery settled with its verdict, inside the caller's transaction; false when the lease was lost. */
  const settleIn = async (
    tx: SqlSession,
    { delivery, workerId, attempt, verdict }: AttemptRecord,
  ): Promise<boolean> => {
    // settled only by the lease's holder, at the attempt it claimed: a lost lease changes nothing
    const settled = await tx.run(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = ?, next_attempt_at = ?,
         lease_owner = NULL, lease_until = NULL
       WHERE endpoint_id = ? AND event_id = ? AND lease_owner = ? AND status = 'pending' AND attempts = ?`,
      [
        verdict.outcome === 'retry' ? 'pending' : verdict.outcome,
        verdict.outcome === 'retry' ? verdict.nextAttemptAt : attempt.attempted_at,
        delivery.endpoint.id,
        delivery.eventId,
        workerId,
        delivery.attempt - 1,
      ],
    );
    return settled === 1;
  };

  /**
   * A batch's attempts and their verdicts, inside the caller's transaction; each answer false when that
   * delivery's lease was lost (nothing of it is written). The attempts go in by one statement per
   * ATTEMPT_ROWS, in the batch's order; the endpoints' changes follow in that order too, without the success
   * whose endpoint an earlier success of the batch already cleared (no failure of it since): a batch of one
   * endpoint's successes costs one endpoint statement, not one a delivery.
   */
  const recordAllIn = async (tx: SqlSession, entries: AttemptRecord[]): Promise<boolean[]> => {
    const recorded: boolean[] = [];
    for (const entry of entries) recorded.push(await settleIn(tx, entry));
    const kept = entries.filter((_, i) => recorded[i]);
    for (let from = 0; from < kept.length; from += ATTEMPT_ROWS) {
      const rows = kept.slice(from, from + ATTEMPT_ROWS);
      await tx.run(
        `INSERT INTO webhook_attempts (endpoint_id, tenant_id, event_id, attempt, attempted_at, status_code, error,
           duration_ms, response_body) VALUES ${valuesList(rows.length, 9)}`,
        rows.flatMap(({ delivery, attempt }): SqlValue[] => [
          delivery.endpoint.id,
          delivery.endpoint.tenant_id,
          attempt.event_id,
          attempt.attempt,
          attempt.attempted_at,
          attempt.status_code,
          attempt.error,
          attempt.duration_ms,
          attempt.response_body,
        ]),
      );
    }
    /** Endpoints whose failing_since this batch cleared, and no failure of theirs set it again since. */
    const cleared = new Set<string>();
    for (const { delivery, attempt, verdict, disable, disableIfFailingBefore } of kept) {
      const endpointId = delivery.endpoint.id;
      if (verdict.outcome === 'succeeded') {
        if (cleared.has(endpointId)) continue;
        cleared.add(endpointId);
        await tx.run(
          'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
          [endpointId],
        );
      } else {
        cleared.delete(endpointId);
        await tx.run(
          `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ?),
             status = CASE WHEN ? = 1 OR COALESCE(failing_since, ?) < ? THEN 'disabled' ELSE status END
           WHERE id = ?`,
          [attempt.attempted_at, disable ? 1 : 0, attempt.attempted_at, disableIfFailingBefore, endpointId],
        );
      }
    }
    return recorded;
  };

  /** A tenant with a delivery due (the deliveries-due index, a tenant at a time). */
  const nextDueTenant = `SELECT d.tenant_id FROM webhook_deliveries d${sql.text.indexedBy('webhook_deliveries_due')}
      WHERE d.status = 'pending' AND d.next_attempt_at <= ?`;
  /**
   * The run queue's fair order: the tenants with something due, the one with the fewest deliveries under
   * lease first, one delivery per tenant per round. Every read walks an index, so a claim costs the batch,
   * not the backlog: the leases in force (lease_until), the tenants with something due (a skip-scan of the
   * due index, one step per tenant), and the due deliveries of their endpoints that may take more.
   */
  const claimIn = async (tx: SqlSession, request: ClaimRequest): Promise<ClaimedDelivery[]> => {
    const { workerId, now, leaseUntil, perEndpoint, max } = request;
    const leased = await tx.all<{ endpoint: string; tenant: string; n: number }>(
      `SELECT endpoint_id AS endpoint, tenant_id AS tenant, CAST(COUNT(*) AS integer) AS n
       FROM webhook_deliveries${sql.text.indexedBy('webhook_deliveries_leased')}
       WHERE lease_until >= ? AND status = 'pending' GROUP BY endpoint_id, tenant_id`,
      [now],
    );
    const { perEndpoint: perEndpointNow, perTenant: perTenantNow } = tallyLeases(leased);
    const full = new Set(leased.filter((l) => l.n >= perEndpoint).map((l) => l.endpoint));
    const due = await tx.all<{ tenant_id: string }>(
      `WITH RECURSIVE t (tenant_id) AS (
         SELECT (${nextDueTenant} ORDER BY d.tenant_id LIMIT 1)
         UNION ALL
         SELECT (${nextDueTenant} AND d.tenant_id > t.tenant_id ORDER BY d.tenant_id LIMIT 1)
         FROM t WHERE t.tenant_id IS NOT NULL)
       SELECT tenant_id FROM t WHERE tenant_id IS NOT NULL`,
      [now, now],
    );
    const tenants = due
      .map((t) => t.tenant_id)
      .sort((a, b) => (perTenantNow.get(a) ?? 0) - (perTenantNow.get(b) ?? 0));
    if (tenants.length === 0) return [];
    const candidates = await dueCandidates(tx, sql.text, tenants, now, full, Math.min(max, perEndpoint));
    const queues = new Map<string, DueDelivery[]>(tenants.map((tenant) => [tenant, []]));
    for (const { tenant_id, ...candidate } of candidates) queues.get(tenant_id)?.push(candidate);
    const picked = pickFairly([...queues.values()], perEndpointNow, perEndpoint, max);
    if (picked.length === 0) return [];
    const keys = picked.flatMap((p): SqlValue[] => [p.endpoint, p.event]);
    // only the deliveries table has these columns: the condition reads the same in both statements
    const pickedKeys = `(endpoint_id, event_id) IN (VALUES ${valuesList(picked.length, 2)})`;
    await tx.run(
      `UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?
       WHERE ${pickedKeys}`,
      [workerId, leaseUntil, ...keys],
    );
    // the leases, the endpoints and the events of the whole batch: two statements, not two per delivery
    const rows = await tx.all<DeliveryRecord>(
      `SELECT ${E_COLUMNS}, d.event_id, v.type AS event_type, v.body, d.attempts
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events v ON v.id = d.event_id
       WHERE ${pickedKeys}`,
      keys,
    );
    return rows.map((row): ClaimedDelivery => {
      const { event_id, event_type, body, attempts, ...endpoint } = row;
      return {
        endpoint: toEndpoint(endpoint),
        eventId: event_id,
        eventType: event_type,
        body: body as EventJson,
        attempt: attempts + 1,
      };
    });
  };

  return {
    async list(tenantId) {
      const rows = await sql.all<EndpointRecord>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = ? ORDER BY created_at, id`,
        [tenantId],
      );
      return rows.map((row) => toEndpoint(row));
    },
    async get(tenantId, endpointId) {
      return endpointAfter(sql, tenantId, endpointId);
    },
    async delete(tenantId, endpointId) {
      return sql.transaction(async (tx) => {
        const gone = await tx.run('DELETE FROM webhook_endpoints WHERE id = ? AND tenant_id = ?', [
          endpointId,
          tenantId,
        ]);
        if (gone === 0) return false;
        await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [endpointId]);
        await tx.run('DELETE FROM webhook_attempts WHERE endpoint_id = ?', [endpointId]);
        return true;
      });
    },
    async claim(workerId, now, leaseUntil, perEndpoint, max) {
      // every commit that writes events wakes the dispatcher, and most find nothing due (a tenant without
      // endpoints): a read says so without the write lock a claim's transaction takes
      const anyDue = await sql.get<{ tenant_id: string }>(`${nextDueTenant} ORDER BY d.tenant_id LIMIT 1`, [
        now,
      ]);
      if (!anyDue) return [];
      return sql.transaction((tx) => claimIn(tx, { workerId, now, leaseUntil, perEndpoint, max }));
    },
    async renewLease(endpointId, eventId, workerId, leaseUntil) {
      const renewed = await sql.run(
        `UPDATE webhook_deliveries SET lease_until = ?
         WHERE endpoint_id = ? AND event_id = ? AND lease_owner = ? AND status = 'pending'`,
        [leaseUntil, endpointId, eventId, workerId],
      );
      return renewed === 1;
    },
    async recordMany(entries) {
      return sql.transaction(async (tx) => {
        return recordAllIn(tx, entries);
      });
    },
    async backlog(now) {
      const row = await sql.get<{ pending: number; due: number; oldest_due_at: string | null }>(
        `SELECT CAST(COUNT(*) AS integer) AS pending,
           CAST(COUNT(*) FILTER (WHERE next_attempt_at <= ?) AS integer) AS due,
           MIN(next_attempt_at) FILTER (WHERE next_attempt_at <= ?) AS oldest_due_at
         FROM webhook_deliveries${sql.text.indexedBy('webhook_deliveries_due')} WHERE status = 'pending'`,
        [now, now],
      );
      return { pending: row!.pending, due: row!.due, oldestDueAt: row!.oldest_due_at };
    },
    async recordAndClaim(entries, next) {
      return sql.transaction(async (tx) => {
        const recorded = await recordAllIn(tx, entries);
        return { recorded, claimed: next.max > 0 ? await claimIn(tx, next) : [] };
      });
    },
    async attempts(tenantId, endpointId, limit) {
      return sql.all<DeliveryAttempt>(
        `SELECT event_id, attempt, attempted_at, status_code, error, duration_ms, response_body FROM webhook_attempts
         WHERE endpoint_id = ? AND tenant_id = ? ORDER BY seq DESC LIMIT ?`,
        [endpointId, tenantId, limit],
      );
    },
  };
}
