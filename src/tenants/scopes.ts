/**
 * What a tenant's token may do, one scope per operation of the contract (its `x-scope`), as Stripe's
 * restricted keys and GitHub's fine-grained tokens divide an API. A token issued without scopes, and every
 * token issued before scopes existed, has them all.
 */
export const SCOPES = [
  'finance:read',
  'uploads:read',
  'uploads:write',
  'files:read',
  'runs:read',
  'runs:write',
  'webhooks:manage',
  'events:read',
] as const;

export type Scope = (typeof SCOPES)[number];

const KNOWN: ReadonlySet<string> = new Set(SCOPES);

export const isScope = (value: string): value is Scope => KNOWN.has(value);

/** The stored form: the scopes in SCOPES' order, separated by spaces (as OAuth's `scope`); null is all. */
export function storedScopes(scopes: readonly Scope[] | undefined): string | null {
  if (scopes === undefined) return null;
  return SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}

/** Whether a token's stored scopes include `scope`: the per-request check, on the stored form as looked up. */
export function grants(stored: string | null, scope: string): boolean {
  return stored === null || stored.split(' ').includes(scope);
}

export function readScopes(stored: string | null): Scope[] {
  if (stored === null) return [...SCOPES];
  return stored.split(' ').filter(isScope);
}
