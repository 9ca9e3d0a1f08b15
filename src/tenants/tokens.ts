import { createHash, randomBytes } from 'node:crypto';
import type { TokenLookup } from '../store/types.js';

/** Recognizable in logs and secret scanners; the rest is 32 random bytes. */
export const TOKEN_PREFIX = 'ota_';
const TOKEN_PATTERN = /^ota_[A-Za-z0-9_-]{43}$/;

export function newToken(): { token: string; prefix: string; hash: string } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, prefix: token.slice(0, 10), hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/**
 * Why a token, as its lookup found it, does not authenticate now: unknown or revoked, past its
 * `expires_at`, or its tenant suspended; undefined when it does. The one rule, for a request and for a
 * stream that asks again while it is open.
 */
export function tokenRefusal(
  found: TokenLookup | undefined,
  now: Date,
): 'invalid' | 'expired' | 'suspended' | undefined {
  if (!found || found.revokedAt) return 'invalid';
  if (found.expiresAt && found.expiresAt <= now.toISOString()) return 'expired';
  if (found.tenantSuspendedAt) return 'suspended';
  return undefined;
}
