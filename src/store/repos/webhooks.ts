import type { EventJson, EventType } from '../../records/event.js';

/** Webhook endpoints, and the deliveries of events to them. Part of the storage layer's contract (../types.ts). */

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
  /** The API version its deliveries are rendered at: its creating request's (src/versions). */
  api_version: string;
}

/** A delivery a dispatcher holds under a lease: one event to one endpoint. */
export interface ClaimedDelivery {
  endpoint: WebhookEndpointRow;
  eventId: string;
  eventType: EventType;
  body: EventJson;
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

/** What a unit of work (./unit-of-work.ts) changes of a tenant's webhook endpoints, inside its transaction. */
export interface WebhookChanges {
  /** Inserts the endpoint unless the tenant already has `max` endpoints: the tenant's creations take turns. */
  create(endpoint: WebhookEndpointRow, max: number): Promise<'created' | 'over_limit'>;
  /** Replaces the secret, keeping the old one as `previous_secret` until `previousUntil`. */
  rotate(endpointId: string, secret: string, previousUntil: string): Promise<WebhookEndpointRow | undefined>;
  /** Enables the endpoint again (its pending deliveries resume); clears `failing_since`. */
  enable(endpointId: string): Promise<WebhookEndpointRow | undefined>;
}

export interface WebhookRepo {
  list(tenantId: string): Promise<WebhookEndpointRow[]>;
  get(tenantId: string, endpointId: string): Promise<WebhookEndpointRow | undefined>;
  /** Deletes the endpoint, its deliveries and its attempts; false when the tenant has no such endpoint. */
  delete(tenantId: string, endpointId: string): Promise<boolean>;
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
