/**
 * What an admin token may do, one scope per group of admin operations (their `x-scope` in openapi.yaml), as
 * Stripe's restricted keys divide its API: a billing job's token need not be able to suspend a tenant. A
 * token issued by the admin command line, and every one issued before admin scopes existed, has them all.
 */
export const ADMIN_SCOPES = [
  'admin:tenants',
  'admin:tokens',
  'admin:ledger',
  'admin:usage',
  'admin:audit',
  'admin:admin_tokens',
  'admin:exports',
] as const;

export type AdminScope = (typeof ADMIN_SCOPES)[number];

const KNOWN: ReadonlySet<string> = new Set(ADMIN_SCOPES);

export const isAdminScope = (value: string): value is AdminScope => KNOWN.has(value);

/** The stored form, in ADMIN_SCOPES' order (as tenants' scopes are stored); null is every scope. */
export function storedAdminScopes(scopes: readonly AdminScope[] | undefined): string | null {
  if (scopes === undefined) return null;
  return ADMIN_SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}

export function readAdminScopes(stored: string | null): AdminScope[] {
  if (stored === null) return [...ADMIN_SCOPES];
  return stored.split(' ').filter(isAdminScope);
}

/** Whether a token's stored scopes include `scope` (null: every scope), as a tenant's token is checked. */
export function holds(stored: string | null, scope: AdminScope): boolean {
  return stored === null || stored.split(' ').includes(scope);
}
