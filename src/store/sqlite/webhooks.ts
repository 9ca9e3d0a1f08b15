import type { ClaimedDelivery, DeliveryAttempt, JsonText, WebhookRepo } from '../types.js';
import {
  type DeliveryRecord,
  ENDPOINT_COLUMNS,
  type EndpointRecord,
  eventTypesColumn,
  toEndpoint,
} from '../outbox-core.js';
import type { Db } from './database.js';

export function sqliteWebhooks(db: Db): WebhookRepo {
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
  // soonest due; an endpoint with `perEndpoint` under lease waits
  const next = db.prepare(
    `WITH leased AS (
       SELECT endpoint_id, tenant_id, COUNT(*) AS n FROM webhook_deliveries
       WHERE status = 'pending' AND lease_until >= @now GROUP BY endpoint_id, tenant_id),
     per_tenant AS (SELECT tenant_id, SUM(n) AS n FROM leased GROUP BY tenant_id)
     SELECT d.endpoint_id, d.event_id FROM webhook_deliveries d
     JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled'
     LEFT JOIN leased l ON l.endpoint_id = d.endpoint_id
     LEFT JOIN per_tenant t ON t.tenant_id = d.tenant_id
     WHERE d.status = 'pending' AND d.next_attempt_at <= @now AND (d.lease_until IS NULL OR d.lease_until < @now)
       AND COALESCE(l.n, 0) < @perEndpoint
     ORDER BY COALESCE(t.n, 0), d.next_attempt_at LIMIT 1`,
  );
  const lease = db.prepare(
    `UPDATE webhook_deliveries SET lease_owner = @worker, lease_until = @until
     WHERE endpoint_id = @endpoint AND event_id = @event`,
  );
  const claimed = db.prepare(
    `SELECT ${ENDPOINT_COLUMNS.split(',')
      .map((c) => `e.${c.trim()}`)
      .join(', ')}, d.event_id, v.type AS event_type, v.body, d.attempts
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events v ON v.id = d.event_id
     WHERE d.endpoint_id = ? AND d.event_id = ?`,
  );
  const renew = db.prepare(
    `UPDATE webhook_deliveries SET lease_until = ?
     WHERE endpoint_id = ? AND event_id = ? AND lease_owner = ? AND status = 'pending'`,
  );
  const held = db.prepare(
    `SELECT 1 FROM webhook_deliveries
     WHERE endpoint_id = ? AND event_id = ? AND lease_owner = ? AND status = 'pending' AND attempts = ?`,
  );
  const addAttempt = db.prepare(
    `INSERT INTO webhook_attempts (endpoint_id, tenant_id, event_id, attempt, attempted_at, status_code, error,
       duration_ms, response_body)
     VALUES (@endpoint, @tenant, @event_id, @attempt, @attempted_at, @status_code, @error, @duration_ms, @response_body)`,
  );
  const settle = db.prepare(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, status = @status, next_attempt_at = @next,
       lease_owner = NULL, lease_until = NULL
     WHERE endpoint_id = @endpoint AND event_id = @event`,
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

  const create = db.transaction((endpoint: Parameters<WebhookRepo['create']>[0], max: number) => {
    if ((count.get(endpoint.tenant_id) as number) >= max) return 'over_limit' as const;
    insert.run({ ...endpoint, events: eventTypesColumn(endpoint.events) });
    return 'created' as const;
  });
  const drop = db.transaction((tenantId: string, endpointId: string) => {
    if (remove.run(endpointId, tenantId).changes === 0) return false;
    removeDeliveries.run(endpointId);
    removeAttempts.run(endpointId);
    return true;
  });
  const claim = db.transaction(
    (worker: string, now: string, until: string, perEndpoint: number, max: number) => {
      const taken: ClaimedDelivery[] = [];
      while (taken.length < max) {
        const due = next.get({ now, perEndpoint }) as { endpoint_id: string; event_id: string } | undefined;
        if (!due) break;
        lease.run({ worker, until, endpoint: due.endpoint_id, event: due.event_id });
        const row = claimed.get(due.endpoint_id, due.event_id) as DeliveryRecord;
        const { event_id, event_type, body, attempts: done, ...endpoint } = row;
        taken.push({
          endpoint: toEndpoint(endpoint as EndpointRecord),
          eventId: event_id,
          eventType: event_type,
          body: body as JsonText,
          attempt: done + 1,
        });
      }
      return taken;
    },
  );
  const record = db.transaction(
    (
      delivery: ClaimedDelivery,
      worker: string,
      attempt: DeliveryAttempt,
      verdict: Parameters<WebhookRepo['record']>[3],
      disable: boolean,
      before: string,
    ) => {
      const key = { endpoint: delivery.endpoint.id, event: delivery.eventId };
      if (!held.get(key.endpoint, key.event, worker, delivery.attempt - 1)) return false;
      addAttempt.run({ ...key, tenant: delivery.endpoint.tenant_id, ...attempt });
      settle.run({
        ...key,
        status: verdict.outcome === 'retry' ? 'pending' : verdict.outcome,
        next: verdict.outcome === 'retry' ? verdict.nextAttemptAt : attempt.attempted_at,
      });
      if (verdict.outcome === 'succeeded') succeeded.run(delivery.endpoint.id);
      else
        failed.run({ id: delivery.endpoint.id, at: attempt.attempted_at, disable: disable ? 1 : 0, before });
      return true;
    },
  );

  return {
    async create(endpoint, max) {
      return create.immediate(endpoint, max);
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
    async rotate(tenantId, endpointId, secret, previousUntil) {
      if (rotate.run(previousUntil, secret, endpointId, tenantId).changes === 0) return undefined;
      return toEndpoint(get.get(endpointId, tenantId) as EndpointRecord);
    },
    async enable(tenantId, endpointId) {
      if (enable.run(endpointId, tenantId).changes === 0) return undefined;
      return toEndpoint(get.get(endpointId, tenantId) as EndpointRecord);
    },
    async claim(workerId, now, leaseUntil, perEndpoint, max) {
      return claim.immediate(workerId, now, leaseUntil, perEndpoint, max);
    },
    async renewLease(endpointId, eventId, workerId, leaseUntil) {
      return renew.run(leaseUntil, endpointId, eventId, workerId).changes === 1;
    },
    async record(delivery, workerId, attempt, verdict, disable, disableIfFailingBefore) {
      return record.immediate(delivery, workerId, attempt, verdict, disable, disableIfFailingBefore);
    },
    async attempts(tenantId, endpointId, limit) {
      return attempts.all(endpointId, tenantId, limit) as DeliveryAttempt[];
    },
  };
}
