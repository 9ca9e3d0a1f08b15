import type {
  AttemptRecord,
  ClaimedDelivery,
  ClaimRequest,
  DeliveryAttempt,
  EventJson,
  WebhookRepo,
} from '../types.js';
import {
  type DeliveryRecord,
  type DueDelivery,
  ENDPOINT_COLUMNS,
  type EndpointRecord,
  eventTypesColumn,
  pickFairly,
  tallyLeases,
  toEndpoint,
} from '../outbox-core.js';
import type { Postgres, Queryable } from './database.js';
import { recordEffect } from '../sql/idempotency.js';
import { sessionOf } from './dialect.js';

const E_COLUMNS = ENDPOINT_COLUMNS.split(',')
  .map((c) => `e.${c.trim()}`)
  .join(', ');

/** One attempt and its verdict, inside the caller's transaction; false when the lease was lost. */
async function recordIn(
  tx: Queryable,
  { delivery, workerId, attempt, verdict, disable, disableIfFailingBefore }: AttemptRecord,
): Promise<boolean> {
  const settled = await tx.query(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, status = $1, next_attempt_at = $2,
             lease_owner = NULL, lease_until = NULL
           WHERE endpoint_id = $3 AND event_id = $4 AND lease_owner = $5 AND status = 'pending' AND attempts = $6
           RETURNING 1 AS ok`,
    [
      verdict.outcome === 'retry' ? 'pending' : verdict.outcome,
      verdict.outcome === 'retry' ? verdict.nextAttemptAt : attempt.attempted_at,
      delivery.endpoint.id,
      delivery.eventId,
      workerId,
      delivery.attempt - 1,
    ],
  );
  if (settled.rows.length === 0) return false;
  await tx.query(
    `INSERT INTO webhook_attempts (endpoint_id, tenant_id, event_id, attempt, attempted_at, status_code, error,
             duration_ms, response_body) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      delivery.endpoint.id,
      delivery.endpoint.tenant_id,
      attempt.event_id,
      attempt.attempt,
      attempt.attempted_at,
      attempt.status_code,
      attempt.error,
      attempt.duration_ms,
      attempt.response_body,
    ],
  );
  if (verdict.outcome === 'succeeded') {
    await tx.query(
      'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
      [delivery.endpoint.id],
    );
  } else {
    await tx.query(
      `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2),
               status = CASE WHEN $3 OR COALESCE(failing_since, $2) < $4 THEN 'disabled' ELSE status END
             WHERE id = $1`,
      [delivery.endpoint.id, attempt.attempted_at, disable, disableIfFailingBefore],
    );
  }
  return true;
}

/**
 * The run queue's fair order, as SQLite's claim (sqlite/webhooks.ts): the tenants with something due, the
 * one with the fewest deliveries under lease first, one delivery per tenant per round. Every read walks an
 * index, so a claim costs the batch, not the backlog: the leases in force (lease_until), the tenants with
 * something due (a skip-scan of the due index, one step per tenant), and the soonest due deliveries of each
 * of their endpoints that may take more (an index per endpoint in due order, rows another claimer holds
 * skipped; an endpoint at its limit is not read).
 */
async function claimIn(tx: Queryable, request: ClaimRequest): Promise<ClaimedDelivery[]> {
  const { workerId, now, leaseUntil, perEndpoint, max } = request;
  const { rows: leased } = await tx.query<{ endpoint: string; tenant: string; n: number }>(
    `SELECT endpoint_id AS endpoint, tenant_id AS tenant, COUNT(*)::int AS n FROM webhook_deliveries
     WHERE lease_until >= $1 AND status = 'pending' GROUP BY endpoint_id, tenant_id`,
    [now],
  );
  const { perEndpoint: perEndpointNow, perTenant: perTenantNow } = tallyLeases(leased);
  const full = leased.filter((l) => l.n >= perEndpoint).map((l) => l.endpoint);
  const { rows: due } = await tx.query<{ tenant_id: string }>(
    `WITH RECURSIVE t AS (
       (SELECT tenant_id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= $1
        ORDER BY tenant_id LIMIT 1)
       UNION ALL
       SELECT (SELECT d.tenant_id FROM webhook_deliveries d
               WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND d.tenant_id > t.tenant_id
               ORDER BY d.tenant_id LIMIT 1)
       FROM t WHERE t.tenant_id IS NOT NULL)
     SELECT tenant_id FROM t WHERE tenant_id IS NOT NULL`,
    [now],
  );
  const tenants = due
    .map((t) => t.tenant_id)
    .sort((a, b) => (perTenantNow.get(a) ?? 0) - (perTenantNow.get(b) ?? 0));
  if (tenants.length === 0) return [];
  // each due tenant's enabled endpoints that may take more, each walked in due order
  const { rows: candidates } = await tx.query<DueDelivery & { tenant_id: string }>(
    `SELECT e.tenant_id, x.endpoint_id AS endpoint, x.event_id AS event FROM webhook_endpoints e
     CROSS JOIN LATERAL (
       SELECT d.endpoint_id, d.event_id, d.next_attempt_at FROM webhook_deliveries d
       WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= $2
         AND (d.lease_until IS NULL OR d.lease_until < $2)
       ORDER BY d.next_attempt_at LIMIT $4
       FOR UPDATE OF d SKIP LOCKED) x
     WHERE e.tenant_id = ANY ($1::text[]) AND e.status = 'enabled' AND e.id <> ALL ($3::text[])
     ORDER BY x.next_attempt_at`,
    [tenants, now, full, Math.min(max, perEndpoint)],
  );
  const queues = new Map<string, DueDelivery[]>(tenants.map((tenant) => [tenant, []]));
  for (const { tenant_id, ...due } of candidates) queues.get(tenant_id)!.push(due);
  const picked = pickFairly([...queues.values()], perEndpointNow, perEndpoint, max);
  if (picked.length === 0) return [];
  const { rows } = await tx.query<DeliveryRecord>(
    `WITH taken AS (
       UPDATE webhook_deliveries d SET lease_owner = $1, lease_until = $2
       FROM unnest($3::text[], $4::text[]) AS k(endpoint_id, event_id)
       WHERE d.endpoint_id = k.endpoint_id AND d.event_id = k.event_id
       RETURNING d.endpoint_id, d.event_id, d.attempts)
     SELECT ${E_COLUMNS}, t.event_id, v.type AS event_type, v.body, t.attempts
     FROM taken t JOIN webhook_endpoints e ON e.id = t.endpoint_id JOIN events v ON v.id = t.event_id`,
    [workerId, leaseUntil, picked.map((p) => p.endpoint), picked.map((p) => p.event)],
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
}

export function postgresWebhooks(db: Postgres): WebhookRepo {
  return {
    async create(endpoint, max, effect) {
      return db.transaction(async (tx) => {
        // one creation at a time per tenant: the count and the insert cannot interleave with another's
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 3))', [
          `webhooks:${endpoint.tenant_id}`,
        ]);
        const {
          rows: [counted],
        } = await tx.query<{ n: number }>(
          'SELECT COUNT(*)::int AS n FROM webhook_endpoints WHERE tenant_id = $1',
          [endpoint.tenant_id],
        );
        if (counted!.n >= max) return 'over_limit' as const;
        await tx.query(
          `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
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
          ],
        );
        await recordEffect(sessionOf(tx), effect, endpoint.id);
        return 'created' as const;
      });
    },
    async list(tenantId) {
      const rows = await db.query<EndpointRecord>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 ORDER BY created_at, id`,
        [tenantId],
      );
      return rows.map((row) => toEndpoint(row));
    },
    async get(tenantId, endpointId) {
      const [row] = await db.query<EndpointRecord>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND tenant_id = $2`,
        [endpointId, tenantId],
      );
      return toEndpoint(row);
    },
    async delete(tenantId, endpointId) {
      return db.transaction(async (tx) => {
        const gone = await tx.query(
          'DELETE FROM webhook_endpoints WHERE id = $1 AND tenant_id = $2 RETURNING id',
          [endpointId, tenantId],
        );
        if (gone.rows.length === 0) return false;
        await tx.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
        await tx.query('DELETE FROM webhook_attempts WHERE endpoint_id = $1', [endpointId]);
        return true;
      });
    },
    async rotate(tenantId, endpointId, secret, previousUntil, effect) {
      // the change and its record on the request's idempotency key commit together
      return db.transaction(async (tx) => {
        const {
          rows: [row],
        } = await tx.query<EndpointRecord>(
          `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $1, secret = $2
           WHERE id = $3 AND tenant_id = $4 RETURNING ${ENDPOINT_COLUMNS}`,
          [previousUntil, secret, endpointId, tenantId],
        );
        if (row) await recordEffect(sessionOf(tx), effect, endpointId);
        return toEndpoint(row);
      });
    },
    async enable(tenantId, endpointId, effect) {
      return db.transaction(async (tx) => {
        const {
          rows: [row],
        } = await tx.query<EndpointRecord>(
          `UPDATE webhook_endpoints SET status = 'enabled', failing_since = NULL
           WHERE id = $1 AND tenant_id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
          [endpointId, tenantId],
        );
        if (row) await recordEffect(sessionOf(tx), effect, endpointId);
        return toEndpoint(row);
      });
    },
    async claim(workerId, now, leaseUntil, perEndpoint, max) {
      return db.transaction((tx) => claimIn(tx, { workerId, now, leaseUntil, perEndpoint, max }));
    },
    async renewLease(endpointId, eventId, workerId, leaseUntil) {
      const rows = await db.query(
        `UPDATE webhook_deliveries SET lease_until = $1
         WHERE endpoint_id = $2 AND event_id = $3 AND lease_owner = $4 AND status = 'pending' RETURNING 1 AS ok`,
        [leaseUntil, endpointId, eventId, workerId],
      );
      return rows.length === 1;
    },
    async recordMany(entries) {
      return db.transaction(async (tx) => {
        const results: boolean[] = [];
        for (const entry of entries) results.push(await recordIn(tx, entry));
        return results;
      });
    },
    async backlog(now) {
      const [row] = await db.query<{ pending: number; due: number; oldest_due_at: string | null }>(
        `SELECT COUNT(*)::int AS pending, COUNT(*) FILTER (WHERE next_attempt_at <= $1)::int AS due,
           MIN(next_attempt_at) FILTER (WHERE next_attempt_at <= $1) AS oldest_due_at
         FROM webhook_deliveries WHERE status = 'pending'`,
        [now],
      );
      return { pending: row!.pending, due: row!.due, oldestDueAt: row!.oldest_due_at };
    },
    async recordAndClaim(entries, next) {
      return db.transaction(async (tx) => {
        const recorded: boolean[] = [];
        for (const entry of entries) recorded.push(await recordIn(tx, entry));
        return { recorded, claimed: next.max > 0 ? await claimIn(tx, next) : [] };
      });
    },
    async attempts(tenantId, endpointId, limit) {
      return db.query<DeliveryAttempt>(
        `SELECT event_id, attempt, attempted_at, status_code, error, duration_ms, response_body FROM webhook_attempts
         WHERE endpoint_id = $1 AND tenant_id = $2 ORDER BY seq DESC LIMIT $3`,
        [endpointId, tenantId, limit],
      );
    },
  };
}
