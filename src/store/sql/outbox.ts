import { randomUUID } from 'node:crypto';
import { eventJson } from '../../records/event.js';
import type { EventDataJson, EventType } from '../types.js';
import type { SqlDialect, SqlSession } from './dialect.js';

export const newEventId = (): string => randomUUID();

/**
 * An endpoint's types as one column, `,run.failed,run.succeeded,`: a delivery fan-out then matches a type
 * with one substring test (`typeNeedle`). Null is every type.
 */
export function eventTypesColumn(types: EventType[] | null): string | null {
  return types === null ? null : `,${types.join(',')},`;
}

export function typeNeedle(type: EventType): string {
  return `,${type},`;
}

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
     WHERE tenant_id = ? AND status = 'enabled' AND (events IS NULL OR ${sql.text.contains('events', '?')})`,
    [id, at, tenantId, typeNeedle(type)],
  );
}

/**
 * Deletes up to `limit` events created before `before`, with their deliveries, and up to `limit` delivery
 * attempts recorded before `before` (EventRepo.sweep).
 */
export async function sweepEvents(
  sql: SqlDialect,
  before: string,
  limit: number,
): Promise<{ events: number; attempts: number }> {
  return sql.transaction(async (tx) => {
    const ids = await tx.all<{ id: string }>(
      'SELECT id FROM events WHERE created_at < ? ORDER BY created_at LIMIT ?',
      [before, limit],
    );
    if (ids.length > 0) {
      const list = JSON.stringify(ids.map((row) => row.id));
      await tx.run(`DELETE FROM webhook_deliveries WHERE event_id IN ${sql.text.jsonTexts('?')}`, [list]);
      await tx.run(`DELETE FROM events WHERE id IN ${sql.text.jsonTexts('?')}`, [list]);
    }
    const attempts = await tx.run(
      `DELETE FROM webhook_attempts WHERE seq IN (
         SELECT seq FROM webhook_attempts WHERE attempted_at < ? LIMIT ?)`,
      [before, limit],
    );
    return { events: ids.length, attempts };
  });
}
