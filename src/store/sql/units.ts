import type { RunChanges, UnitsOfWork } from '../types.js';
import type { SqlDialect } from './dialect.js';
import { recordEffect } from './idempotency.js';
import type { Transact, WorkSession } from './unit-of-work.js';
import { sqlUploadChanges } from './uploads.js';
import { sqlWebhookChanges } from './webhooks.js';

/**
 * `Store.transaction` on either engine: a tenant's unit of work over one of `transact`'s transactions, its
 * repositories bound to the transaction and the tenant; the engine brings its runs' changes.
 */
export function tenantUnits(
  sql: SqlDialect,
  transact: Transact,
  runChanges: (tx: WorkSession, tenantId: string) => RunChanges,
): UnitsOfWork['transaction'] {
  return async (tenantId, work, heldKey) => {
    if (heldKey && heldKey.tenantId !== tenantId) throw new Error("the held key is not of the unit's tenant");
    return transact((tx) =>
      work({
        tenantId,
        runs: runChanges(tx, tenantId),
        uploads: sqlUploadChanges(sql, tx, tenantId),
        webhooks: sqlWebhookChanges(sql, tx, tenantId),
        emit: (type, at, data) => tx.emit(tenantId, type, at, data),
        recordEffect: (resourceId) => recordEffect(tx, heldKey, resourceId),
        afterCommit: (hook) => tx.afterCommit(hook),
      }),
    );
  };
}
