import type { ChangeOrigin } from '../platform/audit.js';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
import type { AppContext } from './state.js';

/** The admin token behind a request, and its idempotency key: who the audit trail says made the change. */
export function adminOrigin(scope: {
  principal: Principal;
  ctx: AppContext;
  effect?: HeldKey;
}): ChangeOrigin {
  return {
    actor: { kind: 'admin_token', tokenId: scope.principal.tokenId, requestId: scope.ctx.state.requestId },
    effect: scope.effect,
  };
}
