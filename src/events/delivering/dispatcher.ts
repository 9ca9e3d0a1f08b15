import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebhooksConfig } from '../../kernel/config.js';
import type { Logger } from '../../kernel/logger.js';
import { ClaimLoop } from '../../queue/claim-loop.js';
import type { ClaimedDelivery, ClaimRequest, DeliveryVerdict, Store } from '../../store/types.js';
import type { Clock } from '../../kernel/time.js';
import { AttemptLog } from './attempt-log.js';
import { sendDelivery, type SendResult } from './sender.js';
import { signedHeaders } from './signing.js';
import { eventAt } from '../../versions/events.js';

/** A receiver's Retry-After is honoured up to this long. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;
/** Status codes whose Retry-After says "slow down" (Standard Webhooks). */
const SLOW_DOWN = new Set([429, 502, 503, 504]);
/** The receiver asks for the endpoint to be disabled. */
const GONE = 410;

/** Whether an attempt succeeded, will be retried, or was the last; 410 also disables the endpoint. */
export function verdictOf(
  result: SendResult,
  attempt: number,
  scheduleMs: number[],
  now: Date,
): { verdict: DeliveryVerdict; disable: boolean } {
  const status = result.statusCode;
  if (status !== null && status >= 200 && status < 300)
    return { verdict: { outcome: 'succeeded' }, disable: false };
  if (status === GONE) return { verdict: { outcome: 'failed' }, disable: true };
  const wait = scheduleMs[attempt - 1];
  if (wait === undefined) return { verdict: { outcome: 'failed' }, disable: false };
  const asked = status !== null && SLOW_DOWN.has(status) ? (result.retryAfterMs ?? 0) : 0;
  const delay = Math.max(wait, Math.min(asked, MAX_RETRY_AFTER_MS));
  return {
    verdict: { outcome: 'retry', nextAttemptAt: new Date(now.getTime() + delay).toISOString() },
    disable: false,
  };
}

/**
 * Delivers webhook events at least once: claims due deliveries under leases (the run queue's loop and
 * fairness), signs and POSTs each, and records the attempt with its verdict in one transaction. A dispatcher
 * killed mid-delivery leaves a lease that lapses; another then sends the same event again, same webhook-id.
 */
export class WebhookDispatcher {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:webhooks`;
  private readonly loop: ClaimLoop<ClaimedDelivery>;
  private readonly leaseMs: number;
  private readonly log: AttemptLog;
  /** The deliveries being sent, and when each one's lease was last extended. */
  private readonly inFlight = new Set<{ delivery: ClaimedDelivery; renewedAt: number }>();
  private leaseTimer?: NodeJS.Timeout;

  constructor(
    private readonly store: Store,
    private readonly config: WebhooksConfig,
    private readonly clock: Clock,
    private readonly logger: Logger,
    pollMs: number,
    /** The dispatcher's lease on a delivery (WEBHOOK_LEASE_MS): renewed while it runs, so it may be shorter than one. */
    leaseMs: number,
    /** Told of every attempt: its outcome, and how long it took. */
    private readonly onAttempt?: (outcome: string, seconds: number) => void,
  ) {
    this.leaseMs = leaseMs;
    this.log = new AttemptLog(
      store.webhooks,
      (free) => this.claimRequest(this.loop.stopped ? 0 : free),
      (deliveries) => this.loop.offer(deliveries),
      () => this.inFlight.size,
    );
    this.loop = new ClaimLoop<ClaimedDelivery>(
      {
        claim: (free) => {
          const { workerId, now, leaseUntil, perEndpoint, max } = this.claimRequest(free);
          return this.store.webhooks.claim(workerId, now, leaseUntil, perEndpoint, max);
        },
        process: (delivery) => this.deliver(delivery),
        watch: (wake) => this.store.events.watch(wake),
      },
      // deliveries are short: claimed half the slots at a time
      {
        concurrency: config.concurrency,
        pollMs,
        refillWhenFree: Math.max(1, Math.floor(config.concurrency / 2)),
      },
      logger,
      'webhook deliveries',
    );
  }

  private claimRequest(max: number): ClaimRequest {
    const now = this.clock.now();
    return {
      workerId: this.workerId,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      perEndpoint: this.config.perEndpointConcurrency,
      max,
    };
  }

  start(): void {
    this.loop.start();
    this.leaseTimer = setInterval(() => this.renewLeases(), this.renewEveryMs);
    this.leaseTimer.unref();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    clearInterval(this.leaseTimer);
  }

  private get renewEveryMs(): number {
    return Math.max(50, Math.floor(this.leaseMs / 3));
  }

  /**
   * One timer for every delivery in flight (most end long before a renewal is due): the lease of each one
   * running longer than a third of it is extended.
   */
  private renewLeases(): void {
    const now = this.clock.now().getTime();
    const until = new Date(now + this.leaseMs).toISOString();
    for (const held of this.inFlight) {
      if (now - held.renewedAt < this.renewEveryMs) continue;
      held.renewedAt = now;
      const { endpoint, eventId } = held.delivery;
      this.store.webhooks.renewLease(endpoint.id, eventId, this.workerId, until).then(
        (kept) => {
          if (!kept) this.logger.warn({ endpoint_id: endpoint.id, event_id: eventId }, 'delivery lease lost');
        },
        (error: unknown) =>
          this.logger.warn(
            { err: error, endpoint_id: endpoint.id, event_id: eventId },
            'delivery lease renewal failed',
          ),
      );
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const { endpoint } = delivery;
    const held = { delivery, renewedAt: this.clock.now().getTime() };
    this.inFlight.add(held);
    try {
      const sentAt = this.clock.now();
      const secrets = [endpoint.secret];
      if (endpoint.previous_secret && (endpoint.previous_secret_until ?? '') > sentAt.toISOString()) {
        secrets.push(endpoint.previous_secret);
      }
      // at the endpoint's version, signed as sent: the same bytes at every attempt
      const body = eventAt(delivery.body, endpoint.api_version, 'webhook');
      const headers = signedHeaders(secrets, delivery.eventId, Math.floor(sentAt.getTime() / 1000), body);
      const result = await sendDelivery(endpoint.url, headers, body, this.config);
      const now = this.clock.now();
      const { verdict, disable } = verdictOf(result, delivery.attempt, this.config.retryScheduleMs, now);
      const recorded = await this.log.record({
        delivery,
        workerId: this.workerId,
        attempt: {
          event_id: delivery.eventId,
          attempt: delivery.attempt,
          attempted_at: sentAt.toISOString(),
          status_code: result.statusCode,
          error: result.error,
          duration_ms: result.durationMs,
          response_body: result.responseBody,
        },
        verdict,
        disable,
        disableIfFailingBefore: new Date(now.getTime() - this.config.disableAfterMs).toISOString(),
      });
      this.onAttempt?.(recorded ? verdict.outcome : 'lease_lost', result.durationMs / 1000);
      const about = { endpoint_id: endpoint.id, event_id: delivery.eventId };
      if (!recorded) this.logger.warn(about, 'delivery recorded elsewhere: its lease was lost');
      else if (this.logger.isLevelEnabled('debug'))
        this.logger.debug(
          {
            ...about,
            attempt: delivery.attempt,
            status: result.statusCode,
            error: result.error,
            outcome: verdict.outcome,
          },
          'webhook attempt',
        );
    } finally {
      this.inFlight.delete(held);
    }
  }
}

/** The dispatcher a worker role runs beside its run worker. */
export function createWebhookDispatcher(services: {
  store: Store;
  config: { webhooks: WebhooksConfig; events: { pollMs: number } };
  clock: Clock;
  logger: Logger;
  metrics: { webhookAttempt(outcome: string, seconds: number): void };
}): WebhookDispatcher {
  return new WebhookDispatcher(
    services.store,
    services.config.webhooks,
    services.clock,
    services.logger,
    services.config.events.pollMs,
    services.config.webhooks.leaseMs,
    (outcome, seconds) => services.metrics.webhookAttempt(outcome, seconds),
  );
}
