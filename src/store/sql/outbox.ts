import { eventJson } from '../../records/event.js';
import { newEventId, typeNeedle } from '../outbox-core.js';
import type { EventDataJson, EventType } from '../types.js';
import type { SqlDialect, SqlSession } from './dialect.js';

/**
 * Writes an event inside the caller's transaction, with a pending delivery for every enabled endpoint of the
 * tenant that takes its type. `data`: the run's or the upload's JSON as it is now in this transaction. The
 * repository tells the engine once the transaction has committed (the `eventsWritten` it was given).
 */
export async function writeEvent(
  sql: SqlDialect,
  tx: SqlSession,
  tenantId: string,
  type: EventType,
  at: string,
  data: EventDataJson,
): Promise<void> {
  const id = newEventId();
  await tx.run('INSERT INTO events (id, tenant_id, type, created_at, body) VALUES (?, ?, ?, ?, ?)', [
    id,
    tenantId,
    type,
    at,
    eventJson(id, type, at, data),
  ]);
  await tx.run(
    `INSERT INTO webhook_deliveries (endpoint_id, event_id, tenant_id, next_attempt_at, status)
     SELECT id, ?, tenant_id, ?, 'pending' FROM webhook_endpoints
     WHERE tenant_id = ? AND status = 'enabled' AND (events IS NULL OR ${sql.contains('events', '?')})`,
    [id, at, tenantId, typeNeedle(type)],
  );
}
