import { timingSafeEqual } from 'node:crypto';
import { ADMIN_SPACE } from '../platform/admin-tokens.js';
import { type ChangeOrigin, OPERATOR } from '../platform/audit.js';
import type { Services } from '../composition/services.js';
import type { HeldKey } from '../store/held-key.js';
import type { Principal } from '../store/types.js';
import type { AppContext } from './state.js';

/** The admin token behind a request, and its idempotency key: who the audit trail says made the change. */
export function adminOrigin(scope: {
  principal: Principal;
  ctx: AppContext;
  effect?: HeldKey;
}): ChangeOrigin {
  if (scope.principal.operator) return { actor: OPERATOR, effect: scope.effect };
  return {
    actor: { kind: 'admin_token', tokenId: scope.principal.tokenId, requestId: scope.ctx.state.requestId },
    effect: scope.effect,
  };
}

/**
 * The operator's principal: its keys and rate bucket are a space of their own, as an admin token's are, and
 * it holds every admin scope (null), as the command line's first admin token does.
 */
const OPERATOR_PRINCIPAL: Principal = {
  tenantId: `${ADMIN_SPACE}operator`,
  userId: '',
  tokenId: 'operator',
  scopes: null,
  operator: true,
};

/**
 * Who may call the admin API: an admin token, or the one secret the admin command line made for its own
 * process (cli/admin-commands.ts serves the admin API in that process, to the operator who can read DATA_DIR
 * anyway). The secret is never stored; it is the process's, and ends with it.
 */
export function adminCallers(
  adminTokens: Services['adminTokens'],
  operatorSecret: string | undefined,
): Pick<Services['adminTokens'], 'authenticate'> {
  if (operatorSecret === undefined) return adminTokens;
  const expected = Buffer.from(operatorSecret);
  return {
    authenticate(token) {
      const given = Buffer.from(token);
      if (given.length === expected.length && timingSafeEqual(given, expected))
        return Promise.resolve(OPERATOR_PRINCIPAL);
      return adminTokens.authenticate(token);
    },
  };
}
