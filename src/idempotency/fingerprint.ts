import { createHash } from 'node:crypto';

/** A request as its client sent it: what a retry must repeat to be the same request. */
export interface SentRequest {
  method: string;
  operationId: string;
  /** path parameters as the path wrote them */
  pathParams: Record<string, string>;
  /** the JSON body as sent, before validation filled in any default; undefined when none came */
  body: unknown;
}

/** JSON with every object's keys sorted, so that the same body written differently is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What identifies a request under its key. It covers the request as sent, never the server's reading of
 * it: a default changed in a deploy must not turn a genuine retry into 422 `idempotency_key_reused`.
 */
export function fingerprintOf(request: SentRequest): string {
  return createHash('sha256')
    .update(
      `${request.method}\n${request.operationId}\n${canonical(request.pathParams)}\n${canonical(request.body)}`,
    )
    .digest('base64url');
}
