/**
 * The one catalogue of failures a caller can see. Every failing envelope is made from an AppError by the
 * renderer in src/http/render.ts; nobody builds an error body by hand.
 */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly detail?: ValidationIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const ERRORS = {
  notAuthenticated: () =>
    new AppError(401, 'not_authenticated', 'Not authenticated', undefined, { 'WWW-Authenticate': 'Bearer' }),
  invalidToken: () =>
    new AppError(401, 'invalid_token', 'Invalid token', undefined, { 'WWW-Authenticate': 'Bearer' }),
  routeNotFound: () => new AppError(404, 'not_found', 'Not found'),
  methodNotAllowed: (allowed: string[]) =>
    new AppError(405, 'method_not_allowed', 'Method not allowed', undefined, { Allow: allowed.join(', ') }),
  notFound: (what: string) => new AppError(404, 'not_found', `${what} not found`),
  validation: (detail: ValidationIssue[]) =>
    new AppError(422, 'validation_error', 'Validation failed', detail),
  unsupportedMediaType: (expected: string[]) =>
    new AppError(415, 'unsupported_media_type', `Content-Type must be one of: ${expected.join(', ')}`),
  payloadTooLarge: (message: string) => new AppError(413, 'payload_too_large', message),
  conflict: (error: string, message: string) => new AppError(409, error, message),
  unprocessable: (error: string, message: string) => new AppError(422, error, message),
  bodyIdle: (idleMs: number) =>
    new AppError(408, 'request_timeout', `The request body sent nothing for ${idleMs} ms`, undefined, {
      Connection: 'close',
    }),
  busy: (message: string, retryAfterSeconds: number) =>
    new AppError(503, 'busy', message, undefined, { 'Retry-After': String(retryAfterSeconds) }),
  tooManyRequests: (error: string, message: string, retryAfterSeconds: number) =>
    new AppError(429, error, message, undefined, { 'Retry-After': String(retryAfterSeconds) }),
  idempotencyKeyReused: () =>
    new AppError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request (method, path or body); use a new key',
    ),
  idempotencyKeyInUse: (retryAfterSeconds: number) =>
    new AppError(
      409,
      'idempotency_key_in_use',
      'A request with this Idempotency-Key is still being executed; retry after it ends',
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limited', 'Too many requests: the rate limit was reached', undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  webhookUrlNotAllowed: (reason: string) =>
    new AppError(422, 'webhook_url_not_allowed', `The webhook URL is not allowed: ${reason}`, [
      { loc: ['body', 'url'], msg: reason, type: 'webhook_url_not_allowed' },
    ]),
  webhookEndpointLimit: (max: number) =>
    new AppError(
      409,
      'too_many_webhook_endpoints',
      `The tenant already has ${max} webhook endpoints; delete one first`,
    ),
  tooManyStreams: (max: number) =>
    new AppError(
      429,
      'too_many_streams',
      `The tenant already has ${max} event streams open; close one first`,
      undefined,
      { 'Retry-After': '5' },
    ),
  notImplemented: () => new AppError(501, 'not_implemented', 'Not implemented'),
  unavailable: (message: string) => new AppError(503, 'unavailable', message),
  storeUnavailable: () =>
    new AppError(503, 'unavailable', 'The database is unavailable or overloaded; retry shortly', undefined, {
      'Retry-After': '1',
    }),
  blobsUnavailable: () =>
    new AppError(503, 'unavailable', 'The object store is unavailable; retry shortly', undefined, {
      'Retry-After': '1',
    }),
  internal: () => new AppError(500, 'internal_error', 'Internal server error'),
} as const;
