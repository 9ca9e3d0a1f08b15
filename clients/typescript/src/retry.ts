/** How a request is retried: 429 and 503 always (the server did nothing), network errors when safe. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; it doubles per attempt, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

export const RETRY_STATUSES = new Set([429, 503]);

/** The backoff before attempt `attempt + 1`: doubling from the base, with jitter, capped. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
}

/**
 * A request may be sent again after a network error only if sending it twice changes nothing: reads,
 * part uploads (a part sent again replaces itself), aborts, and `complete` (idempotent by contract).
 * Creating or rerunning a run is not: a lost answer is reported, never repeated.
 */
export function safeToRepeat(method: string, url: string): boolean {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'PUT' || m === 'DELETE') return true;
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

/**
 * A fetch that retries with exponential backoff, honouring `Retry-After`. The request's body must be
 * replayable (a string or bytes).
 */
export function retryingFetch(policy: RetryPolicy, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    // a Request (openapi-fetch's) is cloned for each attempt; a URL with a bytes or string body (a part) is
    // sent again as it is: cloning would keep a second copy of every part in memory
    const request = input instanceof Request ? input : undefined;
    const method = request?.method ?? init?.method ?? 'GET';
    const url = request?.url ?? String(input);
    const signal = request?.signal ?? init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      const backoff =
        Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = request ? await base(request.clone()) : await base(input, init);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt >= policy.retries || !safeToRepeat(method, url)) throw error;
        await sleep(backoff, signal);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= policy.retries) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response) ?? backoff, signal);
    }
  };
}
