import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (standardwebhooks.com): a secret is `whsec_` + base64 of its key bytes, and a
 * delivery's `webhook-signature` is `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)),
 * one such entry per secret, separated by spaces.
 */
const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

export function newSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** Keys made from secrets lately used: a KeyObject saves HMAC the key's import at every delivery. */
const keys = new Map<string, KeyObject>();
const KEYS_KEPT = 1024;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(
      Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64'),
    );
    if (keys.size >= KEYS_KEPT) keys.delete(keys.keys().next().value!);
    keys.set(secret, key);
  }
  return key;
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one delivery, signed with every secret given (a rotation's two). */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signature(secret, id, timestamp, body)).join(' '),
  };
}
