import { type HeldKey, HeldKeyLostError } from '../held-key.js';
import { KEY_COLUMNS, type KeyRecord, judgeExistingKey } from '../idempotency-core.js';
import type { IdempotencyRepo, KeyClaim } from '../types.js';
import type { Db } from './database.js';

/**
 * Records the effect of a request made under an idempotency key (`effect`), when there is one, on the key's row: called
 * inside the effect's own transaction, so that both commit or neither does.
 */
export function effectRecorder(db: Db): (effect: HeldKey | undefined, resourceId: string) => void {
  const mark = db.prepare(
    'UPDATE idempotency_keys SET resource_id = ? WHERE tenant_id = ? AND key = ? AND lock_token = ?',
  );
  return (effect, resourceId) => {
    if (!effect) return;
    if (mark.run(resourceId, effect.tenantId, effect.key, effect.token).changes !== 1)
      throw new HeldKeyLostError();
  };
}

export function sqliteIdempotency(db: Db): IdempotencyRepo {
  const find = db.prepare(`SELECT ${KEY_COLUMNS} FROM idempotency_keys WHERE tenant_id = ? AND key = ?`);
  const remove = db.prepare('DELETE FROM idempotency_keys WHERE tenant_id = ? AND key = ?');
  const insert = db.prepare(
    `INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)
     VALUES (@tenantId, @key, @fingerprint, @token, @lockedUntil, @now, @expiresAt)`,
  );
  const takeOver = db.prepare(
    'UPDATE idempotency_keys SET lock_token = ?, locked_until = ? WHERE tenant_id = ? AND key = ?',
  );
  const renew = db.prepare(
    `UPDATE idempotency_keys SET locked_until = ?
     WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
  );
  const saveAnswer = db.prepare(
    `UPDATE idempotency_keys SET status = ?, headers = ?, body = ?
     WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
  );
  const dropUnused = db.prepare(
    `DELETE FROM idempotency_keys
     WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL AND resource_id IS NULL`,
  );
  const unlock = db.prepare(
    `UPDATE idempotency_keys SET locked_until = ?
     WHERE tenant_id = ? AND key = ? AND lock_token = ? AND status IS NULL`,
  );
  const expired = db.prepare(
    `DELETE FROM idempotency_keys WHERE (tenant_id, key) IN (
       SELECT tenant_id, key FROM idempotency_keys WHERE expires_at < ? ORDER BY expires_at LIMIT ?)`,
  );

  const claim = db.transaction(
    (
      tenantId: string,
      key: string,
      token: string,
      fingerprint: string,
      now: string,
      lockedUntil: string,
      expiresAt: string,
    ): KeyClaim => {
      let found = find.get(tenantId, key) as KeyRecord | undefined;
      if (found && found.expires_at < now) {
        remove.run(tenantId, key);
        found = undefined;
      }
      if (!found) {
        insert.run({ tenantId, key, fingerprint, token, lockedUntil, now, expiresAt });
        return { outcome: 'claimed', resourceId: null };
      }
      const judged = judgeExistingKey(found, fingerprint, now);
      if (judged !== 'take_over') return judged;
      takeOver.run(token, lockedUntil, tenantId, key);
      return { outcome: 'claimed', resourceId: found.resource_id };
    },
  );

  return {
    async claim(held, fingerprint, now, lockedUntil, expiresAt) {
      return claim.immediate(held.tenantId, held.key, held.token, fingerprint, now, lockedUntil, expiresAt);
    },
    async renew(held, lockedUntil) {
      return renew.run(lockedUntil, held.tenantId, held.key, held.token).changes === 1;
    },
    async saveAnswer(held, answer) {
      const { tenantId, key, token } = held;
      return (
        saveAnswer.run(answer.status, JSON.stringify(answer.headers), answer.body, tenantId, key, token)
          .changes === 1
      );
    },
    async release(held, now) {
      if (dropUnused.run(held.tenantId, held.key, held.token).changes === 0) {
        unlock.run(now, held.tenantId, held.key, held.token);
      }
    },
    async sweep(now, limit) {
      return expired.run(now, limit).changes;
    },
  };
}
