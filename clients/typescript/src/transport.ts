import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/openapi.js';
import { type ErrorEnvelope, OtaError } from './errors.js';
import {
  DEFAULT_RETRY,
  type RateLimitState,
  type RetryNotice,
  type RetryPolicy,
  retryingFetch,
} from './retry.js';

/** What every client of the API is made with: where it is, a token, and how to retry. */
export interface TransportOptions {
  /** Where the API is, for example `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** The bearer token every request carries. */
  token: string;
  retry?: Partial<RetryPolicy>;
  /** The fetch to use (tests pass their own); retries wrap it. */
  fetch?: typeof fetch;
  /**
   * Send an `Idempotency-Key` (a UUID) on every POST, reused by its own retries, so that a POST whose answer
   * was lost is retried safely: on by default.
   */
  idempotencyKeys?: boolean;
  /** Told before each retry (a CLI says "rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
}

/** Unwraps an openapi-fetch answer: its data, or an OtaError with the failing envelope. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    const retryAfter = Number(result.response.headers.get('retry-after') ?? Number.NaN);
    throw new OtaError(
      result.response.status,
      result.error as Partial<ErrorEnvelope> | undefined,
      Number.isFinite(retryAfter) ? retryAfter : undefined,
    );
  }
  return result.data;
}

/**
 * The transport the tenant and admin clients share: the raw typed client (`api`, every operation of the
 * contract) over a fetch that retries 429, 503 and 409 `idempotency_key_in_use` after `Retry-After` and
 * gives every POST an `Idempotency-Key` that its retries reuse; and the rate limit of the latest answer.
 */
export class ApiTransport {
  readonly api: Client<paths>;
  protected readonly retry: RetryPolicy;
  /** The rate limit as the latest answer told it (RateLimit headers); undefined before any answer. */
  rateLimit: RateLimitState | undefined;

  /** `headers` go on every request besides the token (the tenant client's `Open-Tenant-Version`). */
  constructor(
    protected readonly options: TransportOptions,
    headers: Record<string, string> = {},
  ) {
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    const fetchWithRetry = retryingFetch(this.retry, options.fetch ?? fetch, {
      idempotencyKeys: options.idempotencyKeys,
      onRetry: options.onRetry,
      onRateLimit: (state) => {
        this.rateLimit = state;
      },
    });
    this.api = createFetchClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.token}`, ...headers },
      fetch: fetchWithRetry,
    });
  }
}
