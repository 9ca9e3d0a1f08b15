import type { Schemas } from '../contract.js';
import { randomUUID } from 'node:crypto';
import type { HeldKey } from '../store/held-key.js';
import type { Actor, AuditAction, AuditRow } from '../store/types.js';

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
