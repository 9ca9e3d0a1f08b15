import { type HeldKey, HeldKeyLostError } from '../held-key.js';
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
