/**
 * The one catalogue of failures a caller can see: one named entry per situation, each with its HTTP status,
 * its `error` code and its message, and, for a validation failure found past the schemas, its `loc`. Every
 * failing envelope is made from an AppError by `envelopeOf`; nobody builds an error body by hand, and no
 * code outside this file writes an error code. openapi.yaml lists the codes each response can carry.
 */
import type { Schemas } from '../contract/schemas.js';

/** The contract's `ErrorCode`: a code openapi.yaml does not list does not compile. */
export type ErrorCode = Schemas['ErrorCode'];

export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorCode,
    message: string,
    readonly detail?: ValidationIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * The failure underneath, kept as the error's standard `cause`: the log of a request shows it, the caller's
   * envelope never does.
   */
  because(cause: unknown): this {
    Object.defineProperty(this, 'cause', {
      value: cause,
      enumerable: false,
      writable: true,
      configurable: true,
    });
    return this;
  }
}

const retryAfter = (seconds: number) => ({ 'Retry-After': String(seconds) });
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/**
 * Why an `Authorization` header that was sent gave no bearer token, for the 401 to say how to send one:
 * a token alone (no `Bearer `), `Bearer` alone, or another scheme (`Basic`, `Token`).
 */
export type AuthorizationFault = 'token_without_scheme' | 'bearer_without_token' | 'other_scheme';
/** A token refused because it is the other listener's, for the 401 to say which was given and where it goes. */
export type MisplacedToken = 'admin_token_on_public_api' | 'tenant_token_on_admin_api';

/** How a 401 says to send a token, when the header sent was not a bearer token. */
const SEND_BEARER = 'send `Authorization: Bearer <token>`';
const AUTHORIZATION_FAULTS: Record<AuthorizationFault, string> = {
  token_without_scheme: `the Authorization header holds a token without its scheme: ${SEND_BEARER}`,
  bearer_without_token: `the Authorization header says Bearer but holds no token: ${SEND_BEARER}`,
  other_scheme: `the Authorization header is not a bearer token: ${SEND_BEARER}`,
};
/** Which token was given, and the listener it belongs to. */
const MISPLACED_TOKENS: Record<MisplacedToken, string> = {
  admin_token_on_public_api:
    "this is an admin token (ota_admin_...), which only the admin API takes, on its own listener (ADMIN_PORT); the public API takes a tenant's token (ota_...)",
  tenant_token_on_admin_api:
    "this is a tenant's token (ota_...), which the public API takes (PORT); the admin API takes an admin token (ota_admin_..., from `npm run admin -- admin-tokens issue`)",
};

/** Three things an upload was when a request found it completed. */
export type CompletedUploadSeen = 'on_part' | 'while_part_sent' | 'on_abort';
const COMPLETED_UPLOAD_MESSAGES: Record<CompletedUploadSeen, string> = {
  on_part: 'Upload is already completed',
  while_part_sent: 'Upload was completed or aborted while the part was sent',
  on_abort: 'A completed upload cannot be aborted',
};

export const ERRORS = {
  // the request itself
  notAuthenticated: (fault?: AuthorizationFault) =>
    new AppError(
      401,
      'not_authenticated',
      fault ? `Not authenticated: ${AUTHORIZATION_FAULTS[fault]}` : 'Not authenticated',
      undefined,
      BEARER_CHALLENGE,
    ),
  invalidToken: (misplaced?: MisplacedToken) =>
    new AppError(
      401,
      'invalid_token',
      misplaced ? `Invalid token: ${MISPLACED_TOKENS[misplaced]}` : 'Invalid token',
      undefined,
      BEARER_CHALLENGE,
    ),
  tokenExpired: () => new AppError(401, 'token_expired', 'Token expired', undefined, BEARER_CHALLENGE),
  tenantSuspended: () => new AppError(403, 'tenant_suspended', 'The tenant is suspended'),
  insufficientScope: (scope: string) =>
    new AppError(403, 'insufficient_scope', `This token lacks the scope ${scope}`, undefined, {
      'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
    }),
  routeNotFound: () => new AppError(404, 'not_found', 'Not found'),
  methodNotAllowed: (allowed: string[]) =>
    new AppError(405, 'method_not_allowed', 'Method not allowed', undefined, { Allow: allowed.join(', ') }),
  notFound: (what: string) => new AppError(404, 'not_found', `${what} not found`),
  /** A run asked for with an upload's id where its file's id goes (the ids look alike: both are UUIDs). */
  fileIdIsAnUpload: (uploadId: string, fileId: string | null) =>
    new AppError(
      404,
      'not_found',
      fileId
        ? `File not found: ${uploadId} is an upload's id (upload_id); pass the file_id its completion returned, ${fileId}`
        : `File not found: ${uploadId} is an upload's id (upload_id), and the upload is not completed; complete it (POST /api/open/uploads/complete) and pass the file_id that returns`,
    ),
  validation: (detail: ValidationIssue[]) =>
    new AppError(422, 'validation_error', 'Validation failed', detail),
  unsupportedMediaType: (expected: string[]) =>
    new AppError(415, 'unsupported_media_type', `Content-Type must be one of: ${expected.join(', ')}`),
  jsonBodyTooLarge: (limitBytes: number) =>
    new AppError(413, 'payload_too_large', `JSON body over ${limitBytes} bytes`),
  bodyUnreadable: () => new AppError(422, 'body_unreadable', 'The request body could not be read'),
  bodyIdle: (idleMs: number) =>
    new AppError(408, 'request_timeout', `The request body sent nothing for ${idleMs} ms`, undefined, {
      Connection: 'close',
    }),
  /** `Open-Tenant-Version` (or a tenant's pin) names no version a request may ask for (src/versions). */
  unsupportedVersion: (why: string) => new AppError(400, 'unsupported_version', why),
  // refused by Node's HTTP parser, before Koa (http/client-error.ts)
  badRequest: () => new AppError(400, 'bad_request', 'The request is not valid HTTP'),
  headersTooLarge: () => new AppError(431, 'headers_too_large', 'The request headers are larger than 16 KiB'),
  requestTimeout: () => new AppError(408, 'request_timeout', 'The request did not arrive in time'),

  // retries and limits
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
      retryAfter(retryAfterSeconds),
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'rate_limited',
      'Too many requests: the rate limit was reached',
      undefined,
      retryAfter(retryAfterSeconds),
    ),

  // uploads
  uploadTooLarge: (maxBytes: number) =>
    new AppError(413, 'payload_too_large', `size_bytes is over the maximum of ${maxBytes} bytes`),
  tooManyPendingUploads: (max: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'too_many_pending_uploads',
      `The tenant already has ${max} pending uploads; complete or abort some first`,
      undefined,
      retryAfter(retryAfterSeconds),
    ),
  pendingUploadBytesExceeded: (maxBytes: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'pending_upload_bytes_exceeded',
      `Pending uploads may declare ${maxBytes} bytes in all; this one would pass it. Complete or abort some first`,
      undefined,
      retryAfter(retryAfterSeconds),
    ),
  uploadCompleted: (seen: CompletedUploadSeen) =>
    new AppError(409, 'upload_completed', COMPLETED_UPLOAD_MESSAGES[seen]),
  uploadExpired: (expiresAt: string) => new AppError(409, 'upload_expired', `Upload expired at ${expiresAt}`),
  uploadMissingParts: (missing: number[]) =>
    new AppError(409, 'upload_incomplete', `Upload is missing parts: ${missing.join(', ')}`),
  uploadPartsGone: () =>
    new AppError(
      409,
      'upload_incomplete',
      'The stored parts of this upload are gone from the object store; abort it and upload the file again',
    ),
  /** `found` bytes where `declared` were expected; `where` says which count disagreed. */
  sizeMismatch: (where: 'parts' | 'assembled' | 'stored_part', found: number, declared: number) =>
    new AppError(
      409,
      'size_mismatch',
      where === 'parts'
        ? `Parts add up to ${found} bytes, the upload declared ${declared}`
        : where === 'assembled'
          ? `Parts hold ${found} bytes, the upload declared ${declared}`
          : `A stored part holds ${found} bytes where ${declared} were recorded; send it again`,
    ),
  partNumberTooHigh: (partCount: number) =>
    ERRORS.validation([
      {
        loc: ['path', 'part_number'],
        msg: `Input should be less than or equal to ${partCount}`,
        type: 'less_than_equal',
      },
    ]),
  partTooLong: (partNumber: number, expected: number) =>
    new AppError(
      413,
      'payload_too_large',
      `Part ${partNumber} must be exactly ${expected} bytes; the body is longer`,
    ),
  partSizeMismatch: (partNumber: number, expected: number, got: number) =>
    new AppError(
      422,
      'part_size_mismatch',
      `Part ${partNumber} must be exactly ${expected} bytes, got ${got}`,
    ),
  checksumMismatch: (found: string, declared: string) =>
    new AppError(
      422,
      'checksum_mismatch',
      `SHA-256 of the file is ${found}, the upload declared ${declared}`,
    ),
  tooManyPages: (pages: number, max: number) =>
    new AppError(422, 'too_many_pages', `The PDF has ${pages} pages; at most ${max} are accepted`),
  invalidPdf: (message: string) => new AppError(422, 'invalid_pdf', message),
  tooManyConcurrentParts: (max: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'too_many_concurrent_parts',
      `At most ${max} parts of a tenant are received at once; send the next when one is done`,
      undefined,
      retryAfter(retryAfterSeconds),
    ),
  partsBusy: (retryAfterSeconds: number) =>
    new AppError(
      503,
      'busy',
      'The server is receiving as many parts as it can; retry shortly',
      undefined,
      retryAfter(retryAfterSeconds),
    ),
  uploadBusy: () =>
    new AppError(
      503,
      'busy',
      'Another request is working on this upload; retry shortly',
      undefined,
      retryAfter(1),
    ),

  // runs
  runOptionsNotTaken: (target: string, options: string[]) =>
    ERRORS.validation(
      options.map((key) => ({
        loc: ['body', 'options', key],
        msg: `Extra inputs are not permitted: target ${target} takes no option ${key}`,
        type: 'extra_forbidden',
      })),
    ),
  tooManyQueuedRuns: (max: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'too_many_queued_runs',
      `The tenant already has ${max} runs queued; retry once some have started`,
      undefined,
      retryAfter(retryAfterSeconds),
    ),
  runNotFinished: () =>
    new AppError(409, 'run_not_finished', 'Only a succeeded, failed or cancelled run can be rerun'),
  runFinished: () => new AppError(409, 'run_finished', 'Only a queued or running run can be cancelled'),

  // revenue
  untilBeforeSince: () =>
    ERRORS.validation([
      {
        loc: ['query', 'until'],
        msg: 'Value error, until must not be before since',
        type: 'value_error',
      },
    ]),
  periodTooLongByDay: (maxDays: number) =>
    ERRORS.validation([
      {
        loc: ['query', 'end_date'],
        msg: `Value error, a period told by day is at most ${maxDays} days`,
        type: 'value_error',
      },
    ]),
  endDateBeforeStart: () =>
    ERRORS.validation([
      {
        loc: ['query', 'end_date'],
        msg: 'Value error, end_date must not be before start_date',
        type: 'value_error',
      },
    ]),

  // events
  webhookUrlNotAllowed: (reason: string) =>
    new AppError(422, 'webhook_url_not_allowed', `The webhook URL is not allowed: ${reason}`, [
      { loc: ['body', 'url'], msg: reason, type: 'webhook_url_not_allowed' },
    ]),
  externalIdConflict: (externalId: string, transactionId: string) =>
    new AppError(
      409,
      'external_id_conflict',
      `external_id "${externalId}" is booked already (transaction ${transactionId}) with another type, amount, occurred_at or description; nothing was booked`,
    ),
  alreadyReversed: (transactionId: string, reversalId: string) =>
    new AppError(
      409,
      'already_reversed',
      `Transaction ${transactionId} is reversed already, by transaction ${reversalId}`,
    ),
  isAReversal: (transactionId: string, reversedId: string) =>
    new AppError(
      409,
      'already_reversed',
      `Transaction ${transactionId} is the reversal of transaction ${reversedId}; book a new entry instead`,
    ),
  tenantExternalIdTaken: (externalId: string) =>
    new AppError(409, 'tenant_external_id_taken', `Another tenant has the external id "${externalId}"`),
  tenantNameTaken: (name: string) =>
    new AppError(409, 'tenant_name_taken', `Another tenant is named "${name}"`),
  exportInProgress: (exportId: string) =>
    new AppError(409, 'export_in_progress', `The tenant's export ${exportId} is queued or running`),
  exportNotReady: (status: string) =>
    new AppError(409, 'export_not_ready', `The export is ${status}: only a succeeded export has an archive`),
  tenantErasing: (eraseAt: string) =>
    new AppError(
      409,
      'tenant_erasing',
      `The tenant's grace period ended at ${eraseAt}: it is being erased and cannot be resumed`,
    ),
  expiryNotInFuture: () =>
    new AppError(422, 'validation_error', 'Validation failed', [
      {
        loc: ['body', 'expires_at'],
        msg: 'Value error, expires_at must be in the future',
        type: 'value_error',
      },
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
      retryAfter(5),
    ),

  // the server
  notReady: (what: 'Database' | 'File store') => new AppError(503, 'unavailable', `${what} unreachable`),
  storeUnavailable: () =>
    new AppError(
      503,
      'unavailable',
      'The database is unavailable or overloaded; retry shortly',
      undefined,
      retryAfter(1),
    ),
  blobsUnavailable: () =>
    new AppError(
      503,
      'unavailable',
      'The object store is unavailable; retry shortly',
      undefined,
      retryAfter(1),
    ),
  internal: () => new AppError(500, 'internal_error', 'Internal server error'),
} as const;

/** How long a client waits to retry a write on a full disk: space comes back when an operator frees it. */
export const DISK_FULL_RETRY_AFTER_SECONDS = 30;

/**
 * The server's disk (SQLite's or the local blobs') has no space or quota left: nothing the request did
 * wrong, and nothing was changed, so it is 503 `unavailable` with `Retry-After`, as when the database is
 * unreachable. The errno or SQLite error underneath is kept as `cause` for the log.
 */
export class DiskFullError extends AppError {
  constructor(cause?: unknown) {
    super(
      503,
      'unavailable',
      "The server's disk is full; retry later",
      undefined,
      retryAfter(DISK_FULL_RETRY_AFTER_SECONDS),
    );
    this.name = 'DiskFullError';
    if (cause !== undefined) this.because(cause);
  }
}

/** The failing envelope of the contract's ErrorEnvelope: the only place one is built. */
export function envelopeOf(error: AppError, requestId: string) {
  return {
    code: error.status,
    message: error.message,
    error: error.error,
    data: null,
    timestamp: Date.now(),
    request_id: requestId,
    ...(error.detail ? { detail: error.detail } : {}),
  };
}
