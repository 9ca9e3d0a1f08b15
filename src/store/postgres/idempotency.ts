import { type HeldKey, HeldKeyLostError } from '../held-key.js';
import { KEY_COLUMNS, type KeyRecord, judgeExistingKey } from '../idempotency-core.js';
import type { IdempotencyRepo, KeyClaim } from '../types.js';
import type { Postgres, Queryable } from './database.js';

/**
 * Records the effect of a request made under an idempotency key (`effect`), when there is one, on the key's row: called
 * inside the effect's own transaction, so that both commit or neither does.
 */
export async function recordEffect(
  tx: Queryable,
  effect: HeldKey | undefined,
  resourceId: string,
): Promise<void> {
  if (!effect) return;
  const { rowCount } = await tx.query(
    'UPDATE idempotency_keys SET resource_id = $1 WHERE tenant_id = $2 AND key = $3 AND lock_token = $4',
    [resourceId, effect.tenantId, effect.key, effect.token],
  );
  if (rowCount !== 1) throw new HeldKeyLostError();
}

export function postgresIdempotency(db: Postgres): IdempotencyRepo {
  return {
    async claim(held, fingerprint, now, lockedUntil, expiresAt) {
      const { tenantId, key, token } = held;
      // the common case, a new key, is one statement
      const inserted = await db.query(
        `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, key) DO NOTHING RETURNING 1 AS one`,
        [tenantId, key, fingerprint, token, lockedUntil, now, expiresAt],
        'idempotency.insert',
      );
      if (inserted.length === 1) return { outcome: 'claimed', resourceId: null };
      return db.transaction(async (tx): Promise<KeyClaim> => {
        const {
          rows: [found],
        } = await tx.query<KeyRecord>(
          `SELECT ${KEY_COLUMNS} FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 FOR UPDATE`,
          [tenantId, key],
        );
        if (!found || found.expires_at < now) {
          // gone or expired since the insert: the key starts afresh
          await tx.query(
            `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = $3, lock_token = $4, locked_until = $5,
               resource_id = NULL, status = NULL, headers = NULL, body = NULL, created_at = $6, expires_at = $7`,
            [tenantId, key, fingerprint, token, lockedUntil, now, expiresAt],
          );
          return { outcome: 'claimed', resourceId: null };
        }
        const judged = judgeExistingKey(found, fingerprint, now);
        if (judged !== 'take_over') return judged;
        await tx.query(
          'UPDATE idempotency_keys SET lock_token = $3, locked_until = $4 WHERE tenant_id = $1 AND key = $2',
          [tenantId, key, token, lockedUntil],
        );
        return { outcome: 'claimed', resourceId: found.resource_id };
      });
    },
    async renew(held, lockedUntil) {
      const rows = await db.query(
        `UPDATE idempotency_keys SET locked_until = $4
         WHERE tenant_id = $1 AND key = $2 AND lock_token = $3 AND status IS NULL RETURNING 1 AS one`,
        [held.tenantId, held.key, held.token, lockedUntil],
        'idempotency.renew',
      );
      return rows.length === 1;
    },
    async saveAnswer(held, answer) {
      const rows = await db.query(
        `UPDATE idempotency_keys SET status = $4, headers = $5, body = $6
         WHERE tenant_id = $1 AND key = $2 AND lock_token = $3 AND status IS NULL RETURNING 1 AS one`,
        [held.tenantId, held.key, held.token, answer.status, JSON.stringify(answer.headers), answer.body],
        'idempotency.save',
      );
      return rows.length === 1;
    },
    async release(held, now) {
      const dropped = await db.query(
        `DELETE FROM idempotency_keys
         WHERE tenant_id = $1 AND key = $2 AND lock_token = $3 AND status IS NULL AND resource_id IS NULL
         RETURNING 1 AS one`,
        [held.tenantId, held.key, held.token],
      );
      if (dropped.length === 0) {
        await db.query(
          `UPDATE idempotency_keys SET locked_until = $4
           WHERE tenant_id = $1 AND key = $2 AND lock_token = $3 AND status IS NULL`,
          [held.tenantId, held.key, held.token, now],
        );
      }
    },
    async sweep(now, limit) {
      const rows = await db.query(
        `DELETE FROM idempotency_keys WHERE (tenant_id, key) IN (
           SELECT tenant_id, key FROM idempotency_keys WHERE expires_at < $1 ORDER BY expires_at LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING 1 AS one`,
        [now, limit],
      );
      return rows.length;
    },
  };
}
