import type { EventData, EventType } from '../records/event.js';
import type { HeldKey } from './held-key.js';

/**
 * The storage layer's contract. Handlers and domain code only see these interfaces; SQLite
 * (src/store/sqlite, the embedded default) and PostgreSQL (src/store/postgres) implement them, and the
 * store contract tests (test/store) hold both to every guarantee written here. Every tenant-owned read
 * takes the tenant id and filters by it. A method that writes more than one row does it in one
 * transaction: all or nothing. A method that reads more than one figure reads them from one snapshot.
 */

/**
 * The engine could not do the work for a reason that says nothing about the request: unreachable, going
 * away, a statement past its time limit, or a conflict that retrying did not resolve. Callers answer 503.
 */
export class StoreUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreUnavailableError';
  }
}

// the rows the contract shows, and their views, live in src/records: the store writes their stored copies
export type { RunErrorCode, RunJson, RunOptions, RunRow, RunStatus, RunTarget } from '../records/run.js';
export type {
  LedgerEntry,
  TransactionJson,
  TransactionSource,
  TransactionType,
} from '../records/transaction.js';
export type { EventDataJson, EventJson } from '../records/event.js';
export type { JsonText } from '../records/json-text.js';
import type { JsonText } from '../records/json-text.js';
import type { Schemas } from '../contract.js';
import type { LedgerEntry, TransactionType } from '../records/transaction.js';
import type { RunErrorCode, RunRow, RunStatus } from '../records/run.js';

export interface TenantRow {
  id: string;
  name: string;
  currency: string;
  price_per_point: number;
  created_at: string;
}

export interface UserRow {
  id: string;
  tenant_id: string;
  name: string;
  created_at: string;
}

export interface TokenRow {
  id: string;
  tenant_id: string;
  user_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** Who is calling: resolved once per request from the bearer token. */
export interface Principal {
  tenantId: string;
  userId: string;
  tokenId: string;
}

export interface TokenLookup extends Principal {
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface TenantRepo {
  create(tenant: TenantRow, user: UserRow, token: TokenRow, tokenHash: string): Promise<void>;
  get(tenantId: string): Promise<TenantRow | undefined>;
  findByName(name: string): Promise<TenantRow | undefined>;
  list(): Promise<TenantRow[]>;
  setPricePerPoint(tenantId: string, pricePerPoint: number): Promise<boolean>;
  firstUser(tenantId: string): Promise<UserRow | undefined>;
  issueToken(token: TokenRow, tokenHash: string): Promise<void>;
  listTokens(tenantId: string): Promise<TokenRow[]>;
  revokeToken(tokenId: string, at: string): Promise<TokenRow | undefined>;
  lookupToken(tokenHash: string): Promise<TokenLookup | undefined>;
  touchToken(tokenId: string, at: string): Promise<void>;
}

export interface UploadRow {
  id: string;
  tenant_id: string;
  file_name: string;
  size_bytes: number;
  content_type: string;
  sha256: string | null;
  part_size: number;
  part_count: number;
  status: 'pending' | 'completed';
  file_id: string | null;
  created_at: string;
  expires_at: string;
  /** The blob store's id of the multipart upload behind it. */
  multipart_id: string;
}

export interface PartRow {
  upload_id: string;
  part_number: number;
  size_bytes: number;
  sha256: string;
  received_at: string;
}

export interface FileRow {
  id: string;
  tenant_id: string;
  upload_id: string;
  file_name: string;
  size_bytes: number;
  sha256: string;
  page_count: number | null;
  pdf_version: string | null;
  encrypted: boolean;
  storage_key: string;
  created_at: string;
}

export interface PendingLimits {
  count: number;
  bytes: number;
  /** Uploads that expired before this no longer count. */
  now: string;
}

export interface UploadRepo {
  /**
   * Inserts a pending upload unless the tenant's unexpired pending uploads would then number more than
   * `limits.count` or reserve more than `limits.bytes` (declared sizes): checked and written in one
   * transaction.
   */
  create(
    upload: UploadRow,
    limits: PendingLimits,
    effect?: HeldKey,
  ): Promise<'created' | 'too_many' | 'too_many_bytes'>;
  get(tenantId: string, uploadId: string): Promise<UploadRow | undefined>;
  parts(uploadId: string): Promise<PartRow[]>;
  /** Inserts or replaces a part of a pending upload; false when the upload is no longer pending. */
  putPart(part: PartRow): Promise<boolean>;
  /**
   * Marks the upload completed with its file, once; returns the file that won when another complete did.
   * The completion that wins records `upload.completed` with `event` as its data, in the same transaction.
   */
  complete(file: FileRow, event: JsonText<EventData>): Promise<{ file: FileRow; created: boolean }>;
  /** Deletes the upload and its part rows if it is still pending; false when it is not (or is gone). */
  deletePending(tenantId: string, uploadId: string): Promise<boolean>;
  /**
   * The tenant's unexpired pending uploads, the soonest to expire first (then by id), `offset` and `limit`
   * applied after `startingAfter` (an upload id of the tenant's pending uploads; undefined when it is not
   * one). `total` counts them all; `lastId` is the page's last upload when more follow it.
   */
  listPending(
    tenantId: string,
    now: string,
    limit: number,
    offset: number,
    startingAfter?: string,
  ): Promise<(Page<UploadRow> & { lastId: string | null }) | undefined>;
  /** Pending uploads whose expiry is before `now`, oldest first. */
  expired(now: string, limit: number): Promise<UploadRow[]>;
  getFile(tenantId: string, fileId: string): Promise<FileRow | undefined>;
  /** Records that the blob store's multipart upload behind a pending upload changed. */
  setMultipart(uploadId: string, multipartId: string): Promise<void>;
  /**
   * Takes or renews the upload's lease for `holder` until `until`, shared by every process on the database:
   * 'held' when it is now `holder`'s, 'busy' while another holder's lease runs, 'gone' when there is no
   * such upload.
   */
  lease(uploadId: string, holder: string, until: string, now: string): Promise<'held' | 'busy' | 'gone'>;
  /** Gives the lease back, if `holder` still has it. */
  release(uploadId: string, holder: string): Promise<void>;
}

export interface RunFilter {
  status?: RunStatus;
  target?: string;
  keyword?: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** A queue entry a worker holds under a lease. */
export interface ClaimedRun {
  queueMessageId: string;
  /** How many times this queue entry has been claimed, this claim included. */
  claims: number;
  run: RunRow;
  storageKey: string;
}

export interface RunProgress {
  total_tasks: number;
  completed_tasks: number;
  failed_tasks: number;
  progress: number;
}

export interface RunOutcome extends RunProgress {
  status: 'succeeded' | 'failed';
  points_consumed: number;
  output_files: string[];
  error: string | null;
  /** Set with `error`: what ended the run, for programs. */
  error_code: RunErrorCode | null;
  completed_at: string;
}

/** Runs as tenants see them, and as the queue ends them: the records and the queue commit together. */
export interface RunRepo extends RunQueue {
  /**
   * Inserts the run and its queue entry in one transaction, unless the tenant already has `maxQueued` runs
   * queued: then nothing is written and the answer is 'over_limit'.
   */
  create(run: RunRow, maxQueued: number, effect?: HeldKey): Promise<'created' | 'over_limit'>;
  get(tenantId: string, runId: string): Promise<RunRow | undefined>;
  /**
   * Newest first; each item is a run record serialized as the contract's Run. With `startingAfter` (a run
   * id of the tenant's) the list starts right after that run, `offset` counting from there, at the cost of
   * a first page whatever the depth; undefined when the tenant has no such run. A filter holding U+0000
   * matches nothing (no stored text holds it). `lastId` is the id of the
   * page's last run when more runs follow it.
   */
  list(
    tenantId: string,
    filter: RunFilter,
    limit: number,
    offset: number,
    startingAfter?: string,
  ): Promise<(Page<JsonText<Schemas['Run']>> & { lastId: string | null }) | undefined>;
  /**
   * Resets a finished (succeeded, failed or cancelled) run and queues it again; 'conflict' when it is queued
   * or running, 'over_limit' when the tenant has `maxQueued` runs queued.
   */
  rerun(
    tenantId: string,
    runId: string,
    queueMessageId: string,
    at: string,
    maxQueued: number,
    effect?: HeldKey,
  ): Promise<RunRow | 'conflict' | 'over_limit' | undefined>;
  /**
   * Ends a queued or running run as cancelled: its queue entry is done, so the worker holding it loses its
   * lease, cannot finish it and books nothing. 'conflict' for any other status.
   */
  cancel(
    tenantId: string,
    runId: string,
    at: string,
    effect?: HeldKey,
  ): Promise<RunRow | 'conflict' | undefined>;
  /**
   * Across all tenants, for operators: runs by status, and the entries waiting for a worker at `now` (not
   * leased, or leased until before it).
   */
  queueStats(now: string): Promise<{
    byStatus: Partial<Record<RunStatus, number>>;
    waiting: number;
    oldestWaitingAt: string | null;
  }>;
}

/**
 * The run queue as a worker sees it: an entry is claimed under a lease, the lease renewed while the work
 * goes on, and the work finished (or handed back) by the lease's holder only. A worker that lost its lease
 * can change nothing.
 */
export interface RunQueue {
  /**
   * Takes an available queue entry under a lease (a new one, or one whose lease expired), fair across
   * tenants: the tenant with the fewest runs under lease goes first, then the oldest entry of that tenant.
   */
  claim(workerId: string, now: string, leaseUntil: string): Promise<ClaimedRun | undefined>;
  /**
   * Calls `onQueued` when a run may have been queued by any process, sooner than a worker's next poll;
   * returns the unsubscribe. An engine with no way to hear other processes never calls it (workers poll).
   */
  watch(onQueued: () => void): () => void;
  /** Extends the lease; false when the worker lost it. */
  renewLease(queueMessageId: string, workerId: string, leaseUntil: string): Promise<boolean>;
  /** Hands a run back to the queue at once (a worker shutting down): the next claim does not count. */
  releaseLease(queueMessageId: string, workerId: string): Promise<void>;
  /**
   * Records progress while the lease is held. `progress` never goes backwards within an attempt: a run
   * taken over after its worker died holds its percentage until the new execution passes it.
   */
  saveProgress(queueMessageId: string, workerId: string, progress: RunProgress): Promise<boolean>;
  /**
   * Finishes the execution, marks the queue entry done and books its revenue, in one transaction and at
   * most once per queue entry: a repeated call is a no-op that returns false.
   */
  finish(
    queueMessageId: string,
    workerId: string,
    outcome: RunOutcome,
    booking: LedgerEntry | null,
  ): Promise<boolean>;
}

export interface LedgerFilter {
  type?: TransactionType;
  /** Inclusive UTC days, YYYY-MM-DD. */
  startDate?: string;
  endDate?: string;
}

export interface PeriodSums {
  tech: number;
  ecosystem: number;
}

export interface DailySums extends PeriodSums {
  day: string;
}

/** Appending would carry a tenant's ledger past the range in which every total stays exact (2^53 - 1). */
export class LedgerRangeError extends Error {
  constructor(readonly tenantId: string) {
    super(`the ledger of tenant ${tenantId} would pass ${Number.MAX_SAFE_INTEGER} minor units in all`);
  }
}

export interface LedgerRepo {
  /**
   * Appends entries all-or-nothing; entries whose external_id the tenant already has are skipped. Throws
   * LedgerRangeError, writing nothing, when the sum of |amount| over the tenant's ledger would pass 2^53 - 1.
   */
  append(entries: LedgerEntry[]): Promise<{ inserted: number; skipped: number }>;
  /** A page of the contract's Transaction records, newest first. */
  list(
    tenantId: string,
    filter: LedgerFilter,
    limit: number,
    offset: number,
  ): Promise<Page<JsonText<Schemas['Transaction']>>>;
  /** Everything the dashboard shows, read from one snapshot. */
  overview(tenantId: string, fromDay: string, toDay: string): Promise<LedgerOverview>;
}

export interface LedgerOverview {
  /** Sums per type over the tenant's whole ledger. */
  allTime: PeriodSums;
  /** Sums per type of each UTC day from `fromDay` to `toDay` inclusive that has entries, oldest first. */
  daily: DailySums[];
  count: number;
  latestOccurredAt: string | null;
}

/** The answer given to the first request with an idempotency key, replayed to its retries. */
export interface StoredAnswer {
  status: number;
  /** The headers that matter to a client (Location, Retry-After, Content-Type). */
  headers: Record<string, string>;
  body: string;
}

/** What a request with an idempotency key finds when it claims the key. */
export type KeyClaim =
  /**
   * The key is now this request's to execute under. `resourceId` is set when an earlier holder died after
   * committing its effect (the resource it made or changed) but before storing its answer.
   */
  | { outcome: 'claimed'; resourceId: string | null }
  | { outcome: 'replay'; answer: StoredAnswer }
  /** The key was used with a different request (method, route or body). */
  | { outcome: 'mismatch' }
  /** Another request holds the key until `lockedUntil`. */
  | { outcome: 'in_use'; lockedUntil: string };

/**
 * Idempotency keys, per tenant. A key is claimed under a lock that its holder renews while it executes; the
 * effect is recorded on the key in the effect's own transaction (see held-key.ts), and the answer after.
 */
export interface IdempotencyRepo {
  /**
   * Claims `held.key` for a request whose fingerprint is `fingerprint`: a new key (or one past its expiry)
   * is inserted; a key whose holder's lock ran out is taken over with `held.token`.
   */
  claim(
    held: HeldKey,
    fingerprint: string,
    now: string,
    lockedUntil: string,
    expiresAt: string,
  ): Promise<KeyClaim>;
  /** Extends the holder's lock; false when the key is no longer `held.token`'s. */
  renew(held: HeldKey, lockedUntil: string): Promise<boolean>;
  /** Stores the answer to replay, if `held.token` still holds the key. */
  saveAnswer(held: HeldKey, answer: StoredAnswer): Promise<boolean>;
  /**
   * Gives the key up without an answer: deleted when no effect was recorded on it (a retry executes
   * again), else unlocked at `now` (a retry answers from the effect).
   */
  release(held: HeldKey, now: string): Promise<void>;
  /** Deletes up to `limit` keys whose expiry is before `now`; returns how many. */
  sweep(now: string, limit: number): Promise<number>;
}

/** Token buckets every process on the database shares (the rate limiter's; see src/rate-limit/shared.ts). */
export interface RateBucketRepo {
  /**
   * Refills the bucket by the database's clock, then takes up to `want` whole tokens from it: `granted`
   * tokens were taken, `left` stay in it (a fraction included). A new bucket starts full.
   */
  take(
    key: string,
    want: number,
    perSecond: number,
    burst: number,
  ): Promise<{ granted: number; left: number }>;
  /**
   * Deletes up to `limit` buckets untouched for `fullAfterSeconds` (by then any bucket has refilled, and a
   * full bucket is the same as none); returns how many.
   */
  prune(fullAfterSeconds: number, limit: number): Promise<number>;
}

export type { EventType };

/**
 * Events are the transactional outbox of the run and upload state changes: a repository method that changes
 * a run's status (create: run.created; rerun: run.requeued; claim of a queued run: run.started; finish: run.succeeded or
 * run.failed; cancel: run.cancelled) or completes an upload (upload.completed) writes the event, and one
 * pending delivery per enabled webhook endpoint of the tenant subscribed to its type, in the same
 * transaction. `body` is the event as the contract's Event, serialized once: the same bytes are listed,
 * streamed and signed.
 */
export interface StoredEvent {
  position: LogPosition;
  id: string;
  tenant_id: string;
  type: EventType;
  created_at: string;
  body: JsonText<Schemas['Event']>;
}

/**
 * An event's place in the log, in commit order: an event a reader can see first has the smaller position,
 * and no event ever appears below a position a reader has already seen. Compares as text; only the engine
 * makes one (SQLite: the row id taken by its single writer; PostgreSQL: the writing transaction's id and the
 * row's sequence number, read only below the oldest transaction still running).
 */
export type LogPosition = string & { readonly __brand: 'LogPosition' };

export interface EventRepo {
  /**
   * Newest first in log order, after the event `startingAfter` (undefined when the tenant has no such
   * event). `lastId` is the page's last event when more follow it.
   */
  list(
    tenantId: string,
    type: EventType | undefined,
    limit: number,
    startingAfter?: string,
  ): Promise<{ items: JsonText<Schemas['Event']>[]; lastId: string | null } | undefined>;
  /** The event's place in the log, if the tenant has such an event. */
  positionOf(tenantId: string, eventId: string): Promise<LogPosition | undefined>;
  /** The log's end now: every event a reader can see is at or below it. */
  head(): Promise<LogPosition>;
  /**
   * In log order: the events of `tenantIds` after `position`, at most `limit`; `upTo` is where the next read
   * starts (the last event's position on a full page, else the log's end as this read saw it).
   */
  since(
    tenantIds: string[],
    position: LogPosition,
    limit: number,
  ): Promise<{ events: StoredEvent[]; upTo: LogPosition }>;
  /**
   * Calls `onEvents` when events may have been written by any process, sooner than a poll would find them;
   * returns the unsubscribe. An engine that cannot hear other processes calls it for this process's writes.
   */
  watch(onEvents: () => void): () => void;
  /**
   * Deletes up to `limit` events created before `before`, with their deliveries; and delivery attempts
   * recorded before `before`, up to `limit` of them. Returns how many of each.
   */
  sweep(before: string, limit: number): Promise<{ events: number; attempts: number }>;
}

export type EndpointStatus = 'enabled' | 'disabled';

export interface WebhookEndpointRow {
  id: string;
  tenant_id: string;
  url: string;
  /** The event types delivered to it; null: every type. */
  events: EventType[] | null;
  description: string | null;
  status: EndpointStatus;
  secret: string;
  /** After a rotation, the secret that still signs deliveries until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  /** The first failure since the last success; null while deliveries succeed. */
  failing_since: string | null;
  created_at: string;
}

/** A delivery a dispatcher holds under a lease: one event to one endpoint. */
export interface ClaimedDelivery {
  endpoint: WebhookEndpointRow;
  eventId: string;
  eventType: EventType;
  body: JsonText<Schemas['Event']>;
  /** This attempt's number, from 1. */
  attempt: number;
}

export interface DeliveryAttempt {
  event_id: string;
  attempt: number;
  attempted_at: string;
  /** The receiver's status code; null when no answer came (then `error` says why). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** At most 4 KiB of the receiver's answer. */
  response_body: string;
}

/** How an attempt ends the delivery, decided by the dispatcher. */
export type DeliveryVerdict =
  { outcome: 'succeeded' } | { outcome: 'retry'; nextAttemptAt: string } | { outcome: 'failed' };

export interface AttemptRecord {
  delivery: ClaimedDelivery;
  workerId: string;
  attempt: DeliveryAttempt;
  verdict: DeliveryVerdict;
  disable: boolean;
  disableIfFailingBefore: string;
}

export interface WebhookRepo {
  /** Inserts the endpoint unless the tenant already has `max` endpoints: checked and written at once. */
  create(endpoint: WebhookEndpointRow, max: number, effect?: HeldKey): Promise<'created' | 'over_limit'>;
  list(tenantId: string): Promise<WebhookEndpointRow[]>;
  get(tenantId: string, endpointId: string): Promise<WebhookEndpointRow | undefined>;
  /** Deletes the endpoint, its deliveries and its attempts; false when the tenant has no such endpoint. */
  delete(tenantId: string, endpointId: string): Promise<boolean>;
  /** Replaces the secret, keeping the old one as `previous_secret` until `previousUntil`. */
  rotate(
    tenantId: string,
    endpointId: string,
    secret: string,
    previousUntil: string,
    effect?: HeldKey,
  ): Promise<WebhookEndpointRow | undefined>;
  /** Enables the endpoint again (its pending deliveries resume); clears `failing_since`. */
  enable(tenantId: string, endpointId: string, effect?: HeldKey): Promise<WebhookEndpointRow | undefined>;
  /**
   * Takes up to `max` due deliveries of enabled endpoints under a lease, fair across tenants as the run
   * queue is (the tenant with the fewest deliveries under lease first, then the soonest due), and never
   * more than `perEndpoint` under lease for one endpoint.
   */
  claim(
    workerId: string,
    now: string,
    leaseUntil: string,
    perEndpoint: number,
    max: number,
  ): Promise<ClaimedDelivery[]>;
  /** Extends the lease; false when the dispatcher lost it. */
  renewLease(endpointId: string, eventId: string, workerId: string, leaseUntil: string): Promise<boolean>;
  /**
   * Records attempts and their verdicts, all in one transaction, each while its lease is held: a success
   * clears the endpoint's `failing_since`; a failure sets it if unset, and disables the endpoint when
   * `disable` is true or when it has been failing since before `disableIfFailingBefore`. Each answer is false
   * when that delivery's lease was lost (nothing of it is written).
   */
  recordMany(entries: AttemptRecord[]): Promise<boolean[]>;
  /**
   * `recordMany`, then `claim` of up to `next.max` in the same transaction: a dispatcher draining a backlog
   * commits once per batch, its finished deliveries' slots refilled by the same commit.
   */
  recordAndClaim(
    entries: AttemptRecord[],
    next: ClaimRequest,
  ): Promise<{ recorded: boolean[]; claimed: ClaimedDelivery[] }>;
  /** The endpoint's latest attempts, newest first. */
  attempts(tenantId: string, endpointId: string, limit: number): Promise<DeliveryAttempt[]>;
  /** For operators: deliveries waiting (all tenants), those due by `now`, and the soonest due one's time. */
  backlog(now: string): Promise<{ pending: number; due: number; oldestDueAt: string | null }>;
}

/** What `claim` takes, as one value. */
export interface ClaimRequest {
  workerId: string;
  now: string;
  leaseUntil: string;
  perEndpoint: number;
  max: number;
}

export interface Store {
  tenants: TenantRepo;
  events: EventRepo;
  webhooks: WebhookRepo;
  uploads: UploadRepo;
  runs: RunRepo;
  ledger: LedgerRepo;
  idempotency: IdempotencyRepo;
  /** Shared rate limit buckets; null for an engine that one process serves (its limiter is in memory). */
  rateBuckets: RateBucketRepo | null;
  ping(): Promise<void>;
  /**
   * Housekeeping that keeps reads fast; changes no figure any read returns. Safe to call from many processes
   * at once; servers call it every few seconds.
   */
  maintain(): Promise<void>;
  close(): Promise<void>;
}
