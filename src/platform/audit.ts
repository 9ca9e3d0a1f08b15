import type { Schemas } from '../contract/schemas.js';
import { randomUUID } from 'node:crypto';
import type { HeldKey } from '../store/held-key.js';
import { ERRORS } from '../kernel/errors.js';
import type { Actor, AuditAction, AuditPage, AuditRow, Store } from '../store/types.js';

/** An operator's change: the admin command line, or the server seeding its demo tenant. */
export const OPERATOR: Actor = { kind: 'operator' };

/** Who makes a change and, over HTTP, the idempotency key it is made under. */
export interface ChangeOrigin {
  actor: Actor;
  effect?: HeldKey;
}

/** The audit row of one change; `detail` holds what changed, never a secret. */
export function auditRow(
  actor: Actor,
  action: AuditAction,
  at: string,
  tenantId: string | null,
  targetId: string,
  detail?: Record<string, unknown>,
): AuditRow {
  return {
    id: randomUUID(),
    at,
    actor: actor.kind,
    admin_token_id: actor.kind === 'admin_token' ? actor.tokenId : null,
    action,
    tenant_id: tenantId,
    target_id: targetId,
    request_id: actor.kind === 'admin_token' ? actor.requestId : null,
    detail: detail === undefined ? null : JSON.stringify(detail),
  };
}

/** An audit row as the admin API shows it (AuditEvent in openapi.yaml). */
export function auditView(row: AuditRow): Schemas['AuditEvent'] {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    admin_token_id: row.admin_token_id,
    action: row.action,
    tenant_id: row.tenant_id,
    target_id: row.target_id,
    request_id: row.request_id,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Schemas['AuditEvent']['detail']),
  };
}

/** The admin API's query of the trail (adminListAuditEvents in openapi.yaml), its defaults applied. */
export interface AuditListQuery {
  tenant_id?: string | undefined;
  action?: AuditAction | undefined;
  since?: string | undefined;
  until?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
  limit: number;
  offset: number;
  starting_after?: string | undefined;
}

/**
 * A page of the trail as the admin API lists it: the times as UTC instants (a time with an offset is the
 * same instant), an unknown cursor not found.
 */
export async function listAuditEvents(store: Store, query: AuditListQuery): Promise<AuditPage> {
  const instant = (time: string | undefined) =>
    time === undefined ? undefined : new Date(time).toISOString();
  const since = instant(query.since);
  const until = instant(query.until);
  if (since !== undefined && until !== undefined && until < since) throw ERRORS.untilBeforeSince();
  const page = await store.platform.listAudit(
    { tenantId: query.tenant_id, action: query.action, since, until },
    {
      order: query.order ?? 'desc',
      limit: query.limit,
      offset: query.offset,
      startingAfter: query.starting_after,
    },
  );
  if (!page) throw ERRORS.notFound('Audit event');
  return page;
}
