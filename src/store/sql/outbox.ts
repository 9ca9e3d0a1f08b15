import { randomUUID } from 'node:crypto';
import { eventJson } from '../../records/event.js';
import type { EventDataJson, EventType } from '../types.js';
import type { SqlDialect, SqlSession, SqlText } from './dialect.js';

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
 * The statement that gives an event its pending deliveries: one for every enabled endpoint of the tenant
 * that takes its type. The parts are SQL expressions (placeholders or a CTE's columns); `when`, a condition
 * the whole fan-out waits on (a statement whose event row may not be written).
 */
export function fanOutStatement(
  text: SqlText,
  parts: { event: string; at: string; tenant: string; typeNeedle: string; when?: string },
): string {
  return `INSERT INTO webhook_deliveries (endpoint_id, event_id, tenant_id, next_attempt_at, status)
     SELECT w.id, ${parts.event}, w.tenant_id, ${parts.at}, 'pending' FROM webhook_endpoints w
     WHERE w.tenant_id = ${parts.tenant} AND w.status = 'enabled'
       AND (w.events IS NULL OR ${text.contains('w.events', parts.typeNeedle)})${parts.when ? ` AND ${parts.when}` : ''}`;
}

/**
 * Writes an event inside the caller's transaction, with a pending delivery for every enabled endpoint of the
 * tenant that takes its type. `data`: the run's or the upload's JSON as it is now in this transaction. The
 * unit of work (unit-of-work.ts) publishes it once the transaction has committed.
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
  await tx.run(fanOutStatement(sql.text, { event: '?', at: '?', tenant: '?', typeNeedle: '?' }), [
    id,
    at,
    tenantId,
    typeNeedle(type),
  ]);
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
