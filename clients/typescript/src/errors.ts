import type { components } from '../generated/openapi.js';

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** The API's stable failure names, as the contract lists them; `http_error` when an answer carried none. */
export type ErrorCode = components['schemas']['ErrorCode'] | 'http_error';
export type ValidationItem = NonNullable<ErrorEnvelope['detail']>[number];

/**
 * Every failure the API answers, typed: the HTTP status, the stable `error` name, the human `message`, the
 * `request_id` to quote to the operator, and FastAPI-style `detail[]` items for a 422.
 */
export class OtaError extends Error {
  readonly status: number;
  readonly code: number;
  readonly error: ErrorCode;
  readonly request_id: string | undefined;
  readonly detail: ValidationItem[];
  /** Seconds the server asked to wait (429, 503), when it said. */
  readonly retryAfter: number | undefined;

  constructor(status: number, body: Partial<ErrorEnvelope> | undefined, retryAfter?: number) {
    const message = body?.message ?? `HTTP ${status}`;
    super(message);
    this.name = 'OtaError';
    this.status = status;
    this.code = body?.code ?? status;
    this.error = body?.error ?? 'http_error';
    this.request_id = body?.request_id;
    this.detail = body?.detail ?? [];
    this.retryAfter = retryAfter;
  }

  /** One line for a person: the message, each validation item, and the request id. */
  describe(): string {
    const items = this.detail.map((d) => `${d.loc.join('.')}: ${d.msg}`);
    const request = this.request_id ? ` (request ${this.request_id})` : '';
    return `${this.message}${items.length ? `: ${items.join('; ')}` : ''}${request}`;
  }
}

/** The bytes the server stored are not the bytes that were sent. */
export class IntegrityError extends Error {
  constructor(
    readonly expected: string,
    readonly stored: string,
  ) {
    super(`the server stored a file with SHA-256 ${stored}; the file sent has ${expected}`);
    this.name = 'IntegrityError';
  }
}

/**
 * The server could not be reached, after every retry the request was allowed: the request's method and URL,
 * how many times it was sent, and why the last attempt failed (`systemCode` is the system's, ECONNREFUSED,
 * ENOTFOUND, ECONNRESET, ..., when there was one). `cause` is the error fetch or node:http threw.
 */
export class NetworkError extends Error {
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  readonly reason: string;
  readonly systemCode: string | undefined;

  constructor(method: string, url: string, attempts: number, cause: unknown) {
    const { reason, code } = networkFailure(cause);
    super(`could not reach ${url} (${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}): ${reason}`, {
      cause,
    });
    this.name = 'NetworkError';
    this.method = method;
    this.url = url;
    this.attempts = attempts;
    this.reason = reason;
    this.systemCode = code;
  }
}

/**
 * Why a connection failed, from what fetch threw: undici's `TypeError('fetch failed')` says nothing, its
 * `cause` does (`connect ECONNREFUSED 127.0.0.1:8080`), or the causes of an AggregateError when a name had
 * several addresses (localhost: ::1 and 127.0.0.1).
 */
export function networkFailure(error: unknown): { reason: string; code: string | undefined } {
  let cause = error;
  while (cause instanceof Error && cause.message === 'fetch failed' && cause.cause !== undefined)
    cause = cause.cause;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const reason =
    cause instanceof AggregateError && cause.errors.length > 0
      ? [...new Set(cause.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))))].join(
          '; ',
        )
      : cause instanceof Error
        ? cause.message || cause.name
        : String(cause);
  return { reason: reason || String(code ?? 'unknown'), code: typeof code === 'string' ? code : undefined };
}

/**
 * The archive an export download wrote does not have the export's SHA-256 (`expected`, what the server
 * recorded when it built the archive): nothing is left at `file`.
 */
export class ExportIntegrityError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly received: string,
    readonly receivedBytes: number,
  ) {
    super(
      `the archive downloaded has SHA-256 ${received} (${receivedBytes} bytes), not the export's ${expected}: ` +
        `${file} was not written; download it again`,
    );
    this.name = 'ExportIntegrityError';
  }
}
