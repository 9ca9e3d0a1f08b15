import { type HeldKey, HeldKeyLostError } from '../held-key.js';
import type { IdempotencyRepo, KeyClaim } from '../types.js';
import type { SqlDialect, SqlSession } from './dialect.js';

/** An idempotency key's row as both engines store it. */
interface KeyRecord {
  fingerprint: string;
  locked_until: string;
  resource_id: string | null;
  status: number | null;
  headers: string | null;
  body: string | null;
  expires_at: string;
}

const KEY_COLUMNS = 'fingerprint, locked_until, resource_id, status, headers, body, expires_at';

/**
 * What an unexpired key means to a request that finds it, decided under the row's lock by either engine:
 * another request's key, a stored answer to replay, a holder still alive, or a dead holder's key to take
 * over (`take_over`: the engine gives it the new token and answers `claimed` with its recorded effect).
 */
function judgeExistingKey(found: KeyRecord, fingerprint: string, now: string): KeyClaim | 'take_over' {
  if (found.fingerprint !== fingerprint) return { outcome: 'mismatch' };
  if (found.status !== null) {
    return {
      outcome: 'replay',
      answer: {
        status: found.status,
        headers: JSON.parse(found.headers ?? '{}') as Record<string, string>,
        body: found.body ?? '',
      },
    };
  }
  if (found.locked_until > now) return { outcome: 'in_use', lockedUntil: found.locked_until };
  return 'take_over';
}

/**
 * Records the effect of a request made under an idempotency key (`effect`), when there is one, on the
 * key's row: called inside the effect's own transaction, so that both commit or neither does.
 */
export async function recordEffect(
  tx: SqlSession,
  effect: HeldKey | undefined,
  resourceId: string,
): Promise<void> {
  if (!effect) return;
  const marked = await tx.run(
    'UPDATE idempotency_keys SET resource_id = ? WHERE tenant_id = ? AND key = ? AND lock_token = ?',
    [resourceId, effect.tenantId, effect.key, effect.token],
  );
  if (marked !== 1) throw new HeldKeyLostError();
}

export function sqlIdempotency(sql: SqlDialect): IdempotencyRepo {
  return {
    async claim(held, fingerprint, now, lockedUntil, expiresAt) {
      const { tenantId, key, token } = held;
      const fresh = [tenantId, key, fingerprint, token, lockedUntil, now, expiresAt];
      // the common case, a new key, is one statement
      const inserted = await sql.run(
        `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant_id, key) DO NOTHING`,
        fresh,
      );
      if (inserted === 1) return { outcome: 'claimed', resourceId: null };
      return sql.transaction(async (tx): Promise<KeyClaim> => {
        const found = await tx.get<KeyRecord>(
          `SELECT ${KEY_COLUMNS} FROM idempotency_keys WHERE tenant_id = ? AND key = ?${sql.text.rowLock('wait')}`,
          [tenantId, key],
        );
        if (!found || found.expires_at < now) {
          // gone or expired since the insert: the key starts afresh
          await tx.run(
            `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (tenant_id, key) DO UPDATE SET fingerprint = excluded.fingerprint,
               lock_token = excluded.lock_token, locked_until = excluded.locked_until, resource_id = NULL,
               status = NULL, headers = NULL, body = NULL, created_at = excluded.created_at,
               expires_at = excluded.expires_at`,
            fresh,
          );
          return { outcome: 'claimed', resourceId: null };
        }
        const judged = judgeExistingKey(found, fingerprint, now);
        if (judged !== 'take_over') return judged;
        await tx.run(
          'UPDATE idempotency_keys SET lock_token = ?, locked_until = ? WHERE tenant_id = ? AND key = ?',
          [token, lockedUntil, tenantId, key],
        );
        return { outcome: 'claimed', resourceId: found.resource_id };
      });
    },
    async renew(held, lockedUntil) {
      const renewed = await sql.run(
        `UPDATE idempotency_keys SET locked_until = ?
         WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
        [lockedUntil, held.tenantId, held.key, held.token],
      );
      return renewed === 1;
    },
    async saveAnswer(held, answer) {
      const saved = await sql.run(
        `UPDATE idempotency_keys SET status = ?, headers = ?, body = ?
         WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
        [answer.status, JSON.stringify(answer.headers), answer.body, held.tenantId, held.key, held.token],
      );
      return saved === 1;
    },
    async release(held, now) {
      const dropped = await sql.run(
        `DELETE FROM idempotency_keys
         WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL AND resource_id IS NULL`,
        [held.tenantId, held.key, held.token],
      );
      if (dropped === 0) {
        await sql.run(
          `UPDATE idempotency_keys SET locked_until = ?
           WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
          [now, held.tenantId, held.key, held.token],
        );
      }
    },
    async sweep(now, limit) {
      return sql.run(
        `DELETE FROM idempotency_keys WHERE (tenant_id, key) IN (
           SELECT tenant_id, key FROM idempotency_keys WHERE expires_at < ? ORDER BY expires_at LIMIT ?${sql.text.rowLock('skip-locked')})`,
        [now, limit],
      );
    },
  };
}
