import type { HeldKey } from '../held-key.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  ClaimRequest,
  DeliveryAttempt,
  EventType,
  EventJson,
  WebhookRepo,
} from '../types.js';
import {
  ENDPOINT_COLUMNS,
  type EndpointRecord,
  eventTypesColumn,
  pickFairly,
  tallyLeases,
  toEndpoint,
} from '../outbox-core.js';
import type { Db } from './database.js';
import { effectRecorder } from './idempotency.js';

export function sqliteWebhooks(db: Db): WebhookRepo {
  const recordEffect = effectRecorder(db);
  const count = db.prepare('SELECT COUNT(*) FROM webhook_endpoints WHERE tenant_id = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (@id, @tenant_id, @url, @events, @description,
       @status, @secret, @previous_secret, @previous_secret_until, @failing_since, @created_at)`,
  );
  const list = db.prepare(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE tenant_id = ? ORDER BY created_at, id`,
  );
  const get = db.prepare(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND tenant_id = ?`);
  const remove = db.prepare('DELETE FROM webhook_endpoints WHERE id = ? AND tenant_id = ?');
  const removeDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?');
  const removeAttempts = db.prepare('DELETE FROM webhook_attempts WHERE endpoint_id = ?');
  const rotate = db.prepare(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ?, secret = ?
     WHERE id = ? AND tenant_id = ?`,
  );
  const enable = db.prepare(
    `UPDATE webhook_endpoints SET status = 'enabled', failing_since = NULL WHERE id = ? AND tenant_id = ?`,
  );
  // the fair order of the run queue: the tenant with the fewest deliveries under lease first, then the
  // soonest due; an endpoint with `perEndpoint` under lease waits. Each read below walks an index: leases
  // in force, the tenants with due deliveries, and one tenant's due deliveries in order.
  const leasedNow = db.prepare(
    // the leases in force only: grouped by endpoint, SQLite would rather walk every pending delivery
    `SELECT endpoint_id AS endpoint, tenant_id AS tenant, COUNT(*) AS n FROM webhook_deliveries
     INDEXED BY webhook_deliveries_leased
     WHERE lease_until >= ? AND status = 'pending' GROUP BY endpoint_id`,
  );
  const dueTenants = db
    .prepare(
      // no DISTINCT: with it SQLite gathers every due row before taking the first
      `SELECT tenant_id FROM webhook_deliveries INDEXED BY webhook_deliveries_due
       WHERE status = 'pending' AND next_attempt_at <= ? AND tenant_id > ? ORDER BY tenant_id LIMIT 1`,
    )
    .pluck();
  const enabledOf = db
    .prepare(`SELECT id FROM webhook_endpoints WHERE tenant_id = ? AND status = 'enabled'`)
    .pluck();
  // one endpoint's soonest due, in order: an endpoint at its limit is not read at all
  const dueOf = db.prepare(
    `SELECT endpoint_id AS endpoint, event_id AS event, next_attempt_at AS due FROM webhook_deliveries
     INDEXED BY webhook_deliveries_endpoint_due
     WHERE endpoint_id = @endpoint AND status = 'pending' AND next_attempt_at <= @now
       AND (lease_until IS NULL OR lease_until < @now)
     ORDER BY next_attempt_at LIMIT @limit`,
  );
  const leaseMany = db.prepare(
    `UPDATE webhook_deliveries SET lease_owner = @worker, lease_until = @until
     WHERE (endpoint_id, event_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(@keys))
     RETURNING endpoint_id AS endpoint, event_id AS event, attempts`,
  );
  const endpointsById = db.prepare(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id IN (SELECT value FROM json_each(?))`,
  );
  const eventsById = db.prepare(
    'SELECT id, type, body FROM events WHERE id IN (SELECT value FROM json_each(?))',
  );
  const renew = db.prepare(
    `UPDATE webhook_deliveries SET lease_until = ?
     WHERE endpoint_id = ? AND event_id = ? AND lease_owner = ? AND status = 'pending'`,
  );
  const addAttempt = db.prepare(
    `INSERT INTO webhook_attempts (endpoint_id, tenant_id, event_id, attempt, attempted_at, status_code, error,
       duration_ms, response_body)
     VALUES (@endpoint, @tenant, @event_id, @attempt, @attempted_at, @status_code, @error, @duration_ms, @response_body)`,
  );
  // settled only by the lease's holder, at the attempt it claimed: a lost lease changes nothing
  const settle = db.prepare(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, status = @status, next_attempt_at = @next,
       lease_owner = NULL, lease_until = NULL
     WHERE endpoint_id = @endpoint AND event_id = @event AND lease_owner = @worker AND status = 'pending'
       AND attempts = @before`,
  );
  const succeeded = db.prepare(
    'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
  );
  const failed = db.prepare(
    `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, @at),
       status = CASE WHEN @disable = 1 OR COALESCE(failing_since, @at) < @before THEN 'disabled' ELSE status END
     WHERE id = @id`,
  );
  const attempts = db.prepare(
    `SELECT event_id, attempt, attempted_at, status_code, error, duration_ms, response_body FROM webhook_attempts
     WHERE endpoint_id = ? AND tenant_id = ? ORDER BY seq DESC LIMIT ?`,
  );

  const create = db.transaction(
    (endpoint: Parameters<WebhookRepo['create']>[0], max: number, effect?: HeldKey) => {
      if ((count.get(endpoint.tenant_id) as number) >= max) return 'over_limit' as const;
      insert.run({ ...endpoint, events: eventTypesColumn(endpoint.events) });
      recordEffect(effect, endpoint.id);
      return 'created' as const;
    },
  );
  // the change and its record on the request's idempotency key commit together
  const rotateOnce = db.transaction(
    (tenantId: string, endpointId: string, secret: string, previousUntil: string, effect?: HeldKey) => {
      if (rotate.run(previousUntil, secret, endpointId, tenantId).changes === 0) return undefined;
      recordEffect(effect, endpointId);
      return toEndpoint(get.get(endpointId, tenantId) as EndpointRecord);
    },
  );
  const enableOnce = db.transaction((tenantId: string, endpointId: string, effect?: HeldKey) => {
    if (enable.run(endpointId, tenantId).changes === 0) return undefined;
    recordEffect(effect, endpointId);
    return toEndpoint(get.get(endpointId, tenantId) as EndpointRecord);
  });
  const drop = db.transaction((tenantId: string, endpointId: string) => {
    if (remove.run(endpointId, tenantId).changes === 0) return false;
    removeDeliveries.run(endpointId);
    removeAttempts.run(endpointId);
    return true;
  });
  const claim = db.transaction(
    (worker: string, now: string, until: string, perEndpoint: number, max: number) => {
      const { perEndpoint: perEndpointNow, perTenant: perTenantNow } = tallyLeases(
        leasedNow.all(now) as { endpoint: string; tenant: string; n: number }[],
      );
      // every tenant with something due (a skip-scan of the index: one step per tenant)
      const tenants: string[] = [];
      for (let after = ''; ;) {
        const next = dueTenants.get(now, after) as string | undefined;
        if (next === undefined) break;
        tenants.push(next);
        after = next;
      }
      tenants.sort((a, b) => (perTenantNow.get(a) ?? 0) - (perTenantNow.get(b) ?? 0));
      // each tenant's due deliveries, soonest first, from its endpoints that may take more
      const queues = tenants.map((tenant) =>
        (enabledOf.all(tenant) as string[])
          .filter((endpoint) => (perEndpointNow.get(endpoint) ?? 0) < perEndpoint)
          .flatMap(
            (endpoint) =>
              dueOf.all({ endpoint, now, limit: Math.min(max, perEndpoint) }) as {
                endpoint: string;
                event: string;
                due: string;
              }[],
          )
          .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : 0)),
      );
      const picked = pickFairly(queues, perEndpointNow, perEndpoint, max);
      if (picked.length === 0) return [];
      // the leases, the endpoints and the events of the whole batch: three statements, not two per delivery
      const leasedRows = leaseMany.all({
        worker,
        until,
        keys: JSON.stringify(picked.map((p) => [p.endpoint, p.event])),
      }) as { endpoint: string; event: string; attempts: number }[];
      const endpoints = new Map(
        (
          endpointsById.all(JSON.stringify([...new Set(picked.map((p) => p.endpoint))])) as EndpointRecord[]
        ).map((row) => [row.id, toEndpoint(row)]),
      );
      const events = new Map(
        (
          eventsById.all(JSON.stringify(picked.map((p) => p.event))) as {
            id: string;
            type: EventType;
            body: string;
          }[]
        ).map((row) => [row.id, row]),
      );
      return leasedRows.map((row): ClaimedDelivery => {
        const event = events.get(row.event)!;
        return {
          endpoint: endpoints.get(row.endpoint)!,
          eventId: row.event,
          eventType: event.type,
          body: event.body as EventJson,
          attempt: row.attempts + 1,
        };
      });
    },
  );
  // one attempt, inside recordMany's transaction
  const record = ({
    delivery,
    workerId: worker,
    attempt,
    verdict,
    disable,
    disableIfFailingBefore: before,
  }: AttemptRecord) => {
    const key = { endpoint: delivery.endpoint.id, event: delivery.eventId };
    const settled = settle.run({
      ...key,
      worker,
      before: delivery.attempt - 1,
      status: verdict.outcome === 'retry' ? 'pending' : verdict.outcome,
      next: verdict.outcome === 'retry' ? verdict.nextAttemptAt : attempt.attempted_at,
    });
    if (settled.changes === 0) return false;
    addAttempt.run({ ...key, tenant: delivery.endpoint.tenant_id, ...attempt });
    if (verdict.outcome === 'succeeded') succeeded.run(delivery.endpoint.id);
    else failed.run({ id: delivery.endpoint.id, at: attempt.attempted_at, disable: disable ? 1 : 0, before });
    return true;
  };
  const backlog = db.prepare(
    `SELECT COUNT(*) AS pending, COALESCE(SUM(next_attempt_at <= ?), 0) AS due,
       MIN(CASE WHEN next_attempt_at <= ? THEN next_attempt_at END) AS oldestDueAt
     FROM webhook_deliveries INDEXED BY webhook_deliveries_due WHERE status = 'pending'`,
  );
  const recordMany = db.transaction((entries: AttemptRecord[]) => entries.map(record));
  const recordAndClaim = db.transaction((entries: AttemptRecord[], next: ClaimRequest) => {
    const recorded = entries.map(record);
    const claimed =
      next.max > 0 ? claim(next.workerId, next.now, next.leaseUntil, next.perEndpoint, next.max) : [];
    return { recorded, claimed };
  });

  return {
    async create(endpoint, max, effect) {
      return create.immediate(endpoint, max, effect);
    },
    async list(tenantId) {
      return (list.all(tenantId) as EndpointRecord[]).map((row) => toEndpoint(row));
    },
    async get(tenantId, endpointId) {
      return toEndpoint(get.get(endpointId, tenantId) as EndpointRecord | undefined);
    },
    async delete(tenantId, endpointId) {
      return drop.immediate(tenantId, endpointId);
    },
    async rotate(tenantId, endpointId, secret, previousUntil, effect) {
      return rotateOnce.immediate(tenantId, endpointId, secret, previousUntil, effect);
    },
    async enable(tenantId, endpointId, effect) {
      return enableOnce.immediate(tenantId, endpointId, effect);
    },
    async claim(workerId, now, leaseUntil, perEndpoint, max) {
      return claim.immediate(workerId, now, leaseUntil, perEndpoint, max);
    },
    async renewLease(endpointId, eventId, workerId, leaseUntil) {
      return renew.run(leaseUntil, endpointId, eventId, workerId).changes === 1;
    },
    async backlog(now) {
      return backlog.get(now, now) as { pending: number; due: number; oldestDueAt: string | null };
    },
    async recordAndClaim(entries, next) {
      return recordAndClaim.immediate(entries, next);
    },
    async recordMany(entries) {
      return recordMany.immediate(entries);
    },
    async attempts(tenantId, endpointId, limit) {
      return attempts.all(endpointId, tenantId, limit) as DeliveryAttempt[];
    },
  };
}
