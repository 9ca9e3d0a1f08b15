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
