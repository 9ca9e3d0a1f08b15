import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers refuse a delivery whose timestamp is further than this from their clock (Standard Webhooks). */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** A delivery that is not what the endpoint's secret signed, or is too old or too new. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a webhook delivery as Standard Webhooks defines it and returns the event it carries. Pass the
 * raw body, exactly the bytes received (a framework that parses and re-serializes JSON changes them), the
 * request's headers, and the endpoint's `whsec_...` secret. Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook<Event = unknown>(
  secret: string,
  headers: HeaderBag,
  body: string | Buffer,
  now: Date = new Date(),
): Event {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const skew = Math.abs(now.getTime() / 1000 - Number(timestamp));
  if (skew > TIMESTAMP_TOLERANCE_SECONDS)
    throw new WebhookVerificationError('webhook-timestamp is too far from now');
  if (!secret.startsWith('whsec_')) {
    throw new WebhookVerificationError('the secret is the endpoint\'s "whsec_..." value (not a signature)');
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update(`${id}.${timestamp}.${text}`)
    .digest();
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookVerificationError('no signature matches the secret');
  return JSON.parse(text) as Event;
}
