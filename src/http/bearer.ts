import type { AuthorizationFault, MisplacedToken } from '../kernel/errors.js';
import { ADMIN_TOKEN_PREFIX } from '../platform/admin-tokens.js';
import { TOKEN_PREFIX } from '../tenants/tokens.js';
import type { Audience } from './operations.js';
import type { AppContext } from './state.js';

const BEARER = /^Bearer +(\S+) *$/i;
const SCHEME_ONLY = /^Bearer *$/i;
/** What a token looks like when it is sent without a scheme: one word, no `scheme credentials` pair. */
const ONE_WORD = /^\S+$/;

/** The bearer token of the request's `Authorization` header, when it has one. */
export const bearerToken = (ctx: AppContext): string | undefined =>
  BEARER.exec(ctx.get('authorization'))?.[1];

/**
 * Why an `Authorization` header that was sent gave no bearer token (see AuthorizationFault). Undefined
 * when there is no header, or it holds a bearer token.
 */
export function authorizationFault(ctx: AppContext): AuthorizationFault | undefined {
  const header = ctx.get('authorization').trim();
  if (header === '' || BEARER.test(header)) return undefined;
  if (SCHEME_ONLY.test(header)) return 'bearer_without_token';
  return ONE_WORD.test(header) ? 'token_without_scheme' : 'other_scheme';
}

/**
 * A token refused because it is the other listener's (see MisplacedToken): the prefixes tell an admin
 * token (`ota_admin_`) from a tenant's (`ota_`). Undefined for any other refused token (unknown, revoked,
 * mistyped), whose 401 says no more than that.
 */
export function misplacedToken(token: string, audience: Audience | undefined): MisplacedToken | undefined {
  const admin = token.startsWith(ADMIN_TOKEN_PREFIX);
  if (audience === 'tenant' && admin) return 'admin_token_on_public_api';
  if (audience === 'admin' && !admin && token.startsWith(TOKEN_PREFIX)) return 'tenant_token_on_admin_api';
  return undefined;
}
