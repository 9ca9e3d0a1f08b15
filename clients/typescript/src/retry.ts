/** How a request is retried: 429 and 503 always (the server did nothing), network errors when safe. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; it doubles per attempt, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

const RETRY_STATUSES = new Set([429, 503]);

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

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const sleep = (ms: number, signal?: AbortSignal) =>
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
 * replayable (a string or bytes): it is cloned for each attempt.
 */
export function retryingFetch(policy: RetryPolicy, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const backoff =
        Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (attempt >= policy.retries || !safeToRepeat(request.method, request.url)) throw error;
        await sleep(backoff, request.signal);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= policy.retries) return response;
      await response.body?.cancel();
      await sleep(retryAfterMs(response) ?? backoff, request.signal);
    }
  };
}
