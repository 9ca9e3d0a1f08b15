import { createHash, randomBytes } from 'node:crypto';

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
