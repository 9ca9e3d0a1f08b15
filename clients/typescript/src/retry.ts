import { randomUUID } from 'node:crypto';
import { type ErrorCode, NetworkError, networkFailure } from './errors.js';

/**
 * How a request is retried: 429, 503 and 409 `idempotency_key_in_use` always (the server did nothing, or
 * is still doing it), network errors when safe.
 */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; it doubles per attempt, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

export const RETRY_STATUSES = new Set([429, 503]);

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The server's `RateLimit` and `RateLimit-Policy` headers (IETF draft), as of the latest answer. */
export interface RateLimitState {
  /** Requests the bucket holds at most (`q`). */
  limit: number;
  /** Seconds the bucket takes to fill (`w`). */
  windowSeconds: number;
  /** Requests that may still be sent at once (`r`). */
  remaining: number;
  /** Seconds until the bucket is full again (`t`). */
  resetSeconds: number;
}

/** What a retry is about to wait for: for a CLI to tell its user. */
export interface RetryNotice {
  status: number | 'network';
  /** The server's `error` for a failing envelope (`rate_limited`, `idempotency_key_in_use`, ...). */
  error?: ErrorCode;
  delayMs: number;
  attempt: number;
  /** The request's URL. */
  url?: string;
  /** Why a connection failed (`network`): the system's code (ECONNREFUSED) or the error's message. */
  reason?: string;
}

export interface RetryHooks {
  /** Send an `Idempotency-Key` (a UUID, kept across the retries of one call) on every POST: on by default. */
  idempotencyKeys?: boolean;
  onRetry?: (notice: RetryNotice) => void;
  onRateLimit?: (state: RateLimitState) => void;
}

/** The backoff before attempt `attempt + 1`: doubling from the base, with jitter, capped. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/**
 * A request may be sent again after a network error only if sending it twice changes nothing: reads,
 * part uploads (a part sent again replaces itself), aborts, `complete` (idempotent by contract), and any
 * POST that carries an Idempotency-Key (the server answers its retry with the first answer).
 */
export function safeToRepeat(method: string, url: string, idempotencyKey?: string | null): boolean {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'PUT' || m === 'DELETE') return true;
  if (m === 'POST' && idempotencyKey) return true;
  return m === 'POST' && new URL(url).pathname.endsWith('/uploads/complete');
}

export function retryAfterMs(response: {
  headers: { get(name: string): string | null };
}): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Reads `RateLimit: "default";r=..;t=..` and `RateLimit-Policy: "default";q=..;w=..`; undefined without them. */
export function parseRateLimit(headers: { get(name: string): string | null }): RateLimitState | undefined {
  const param = (header: string | null, name: string) => {
    const match = header ? new RegExp(`;\\s*${name}=(\\d+)`).exec(header) : null;
    return match ? Number(match[1]) : undefined;
  };
  const current = headers.get('ratelimit');
  const policy = headers.get('ratelimit-policy');
  const remaining = param(current, 'r');
  const resetSeconds = param(current, 't');
  const limit = param(policy, 'q');
  const windowSeconds = param(policy, 'w');
  if (
    remaining === undefined ||
    resetSeconds === undefined ||
    limit === undefined ||
    windowSeconds === undefined
  )
    return undefined;
  return { limit, windowSeconds, remaining, resetSeconds };
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The failing envelope's `error` of a response worth retrying, read from a copy (the body stays unread). */
/** The failing envelope's `error`: one of the contract's codes, as the server answers only those. */
async function errorOf(response: Response): Promise<ErrorCode | undefined> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { error?: unknown } | undefined;
  return typeof body?.error === 'string' ? (body.error as ErrorCode) : undefined;
}

/**
 * A fetch that retries with exponential backoff, honouring `Retry-After`, and gives every POST an
 * Idempotency-Key that its retries reuse, so that a POST whose answer was lost is safe to send again. The
 * request's body must be replayable (a string or bytes).
 */
export function retryingFetch(
  policy: RetryPolicy,
  base: typeof fetch = fetch,
  hooks: RetryHooks = {},
): typeof fetch {
  return async (input, init) => {
    // a Request (openapi-fetch's) is cloned for each attempt; a URL with a bytes or string body (a part) is
    // sent again as it is: cloning would keep a second copy of every part in memory
    let request = input instanceof Request ? input : undefined;
    const method = (request?.method ?? init?.method ?? 'GET').toUpperCase();
    const url = request?.url ?? String(input);
    const signal = request?.signal ?? init?.signal ?? undefined;
    let key: string | null = request?.headers.get(IDEMPOTENCY_KEY_HEADER) ?? null;
    if (method === 'POST' && !key && hooks.idempotencyKeys !== false) {
      key = randomUUID();
      if (request) {
        const headers = new Headers(request.headers);
        headers.set(IDEMPOTENCY_KEY_HEADER, key);
        request = new Request(request, { headers });
      } else {
        const headers = new Headers(init?.headers);
        headers.set(IDEMPOTENCY_KEY_HEADER, key);
        init = { ...init, headers };
      }
    }
    for (let attempt = 0; ; attempt++) {
      const backoff = backoffMs(policy, attempt);
      let response: Response;
      try {
        response = request ? await base(request.clone()) : await base(input, init);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt >= policy.retries || !safeToRepeat(method, url, key))
          throw new NetworkError(method, url, attempt + 1, error);
        const { code, reason } = networkFailure(error);
        hooks.onRetry?.({
          status: 'network',
          delayMs: backoff,
          attempt: attempt + 1,
          url,
          reason: code ?? reason,
        });
        await sleep(backoff, signal);
        continue;
      }
      const limits = parseRateLimit(response.headers);
      if (limits) hooks.onRateLimit?.(limits);
      const retryable =
        RETRY_STATUSES.has(response.status) ||
        (response.status === 409 && key !== null && (await errorOf(response)) === 'idempotency_key_in_use');
      if (!retryable || attempt >= policy.retries) return response;
      const delayMs = retryAfterMs(response) ?? backoff;
      hooks.onRetry?.({
        status: response.status,
        error: await errorOf(response),
        delayMs,
        attempt: attempt + 1,
        url,
      });
      await response.body?.cancel();
      await sleep(delayMs, signal);
    }
  };
}
