export { API_VERSION, CLIENT_VERSION } from '../generated/version.js';
export {
  type ApiVersions,
  type ClientOptions,
  type CompletedUpload,
  createClient,
  type Dashboard,
  OpenTenantClient,
  type OutputName,
  type Run,
  type RunListQuery,
  type RunStatus,
  type RunTarget,
  type Schemas,
  type Transaction,
  type TransactionQuery,
  type Upload,
  type UploadOptions,
  type UploadProgress,
  type WaitOptions,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type DeliveryAttempt,
  type EventListQuery,
  type SubscribedEventType,
} from './client.js';
export {
  type AdminClientOptions,
  type AdminCreatedTenant,
  type AdminCreateTenantInput,
  type AdminIssuedToken,
  type AdminIssueTokenInput,
  type AdminLedgerBatchResult,
  type AdminLedgerEntryInput,
  type AdminTenant,
  type AdminTenantListQuery,
  type AdminToken,
  type AdminUpdateTenantInput,
  type AdminUsage,
  type AdminUsageQuery,
  type AuditEvent,
  type AuditEventQuery,
  createAdminClient,
  OpenTenantAdminClient,
  type TokenScope,
} from './admin-client.js';
export { type Event, type EventType, type StreamOptions } from './event-stream.js';
export { TIMESTAMP_TOLERANCE_SECONDS, verifyWebhook, WebhookVerificationError } from './webhooks.js';
export {
  type ErrorCode,
  type ErrorEnvelope,
  IntegrityError,
  NetworkError,
  OtaError,
  type ValidationItem,
} from './errors.js';
export { currencyExponent, formatMoney } from './money.js';
export { DEFAULT_RETRY, type RateLimitState, type RetryNotice, type RetryPolicy } from './retry.js';
export type { components, operations, paths } from '../generated/openapi.js';
