import type { HeldKey } from '../../store/held-key.js';
import { randomUUID } from 'node:crypto';
import type { Schemas } from '../../contract/schemas.js';
import type { WebhooksConfig } from '../../kernel/config.js';
import { ERRORS } from '../../kernel/errors.js';
import { EVENT_TYPES } from '../../records/event.js';
import type { EventType, Store, WebhookEndpointRow } from '../../store/types.js';
import type { Clock } from '../../kernel/time.js';
import { newSecret } from '../delivering/signing.js';
import { NEWEST_VERSION } from '../../versions/registry.js';
import { parseEndpointUrl, resolveAllowed, UrlNotAllowed } from '../delivering/url-policy.js';

export type EndpointView = Schemas['WebhookEndpoint'];
export type NewEndpoint = Schemas['CreateWebhookEndpointRequest'];

/** What an endpoint's `events` holds to take every type, now and later (as Stripe's `enabled_events`). */
const EVERY_EVENT = '*';

/** Attempts listed by `GET .../deliveries` at most. */
export const MAX_LISTED_ATTEMPTS = 100;

export function endpointView(row: WebhookEndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    // every type, those added later included: shown as every type there is now
    events: row.events ?? [...EVENT_TYPES],
    status: row.status,
    description: row.description,
    created_at: row.created_at,
    api_version: row.api_version as Schemas['ApiVersion'],
  };
}

/** Webhook endpoints of a tenant: registration (with the SSRF check), rotation, enabling, the attempt log. */
export class WebhookEndpoints {
  constructor(
    private readonly store: Store,
    private readonly config: WebhooksConfig,
    private readonly clock: Clock,
  ) {}

  private async checkUrl(raw: string): Promise<void> {
    try {
      await resolveAllowed(parseEndpointUrl(raw, this.config), this.config);
    } catch (error) {
      if (error instanceof UrlNotAllowed) throw ERRORS.webhookUrlNotAllowed(error.message);
      throw error;
    }
  }

  async create(
    tenantId: string,
    request: NewEndpoint,
    /** The version of the request that creates it: its deliveries are rendered at it. */
    apiVersion: string = NEWEST_VERSION,
    effect?: HeldKey,
  ): Promise<EndpointView & { secret: string }> {
    await this.checkUrl(request.url);
    const types = request.events ?? [EVERY_EVENT];
    const every = types.includes(EVERY_EVENT);
    const row: WebhookEndpointRow = {
      id: randomUUID(),
      tenant_id: tenantId,
      url: request.url,
      events: every ? null : [...new Set(types as EventType[])],
      description: request.description ?? null,
      status: 'enabled',
      secret: newSecret(),
      previous_secret: null,
      previous_secret_until: null,
      failing_since: null,
      created_at: this.clock.now().toISOString(),
      api_version: apiVersion,
    };
    const created = await this.store.transaction(
      tenantId,
      async (tx) => {
        const outcome = await tx.webhooks.create(row, this.config.maxEndpointsPerTenant);
        if (outcome === 'created') await tx.recordEffect(row.id);
        return outcome;
      },
      effect,
    );
    if (created === 'over_limit') {
      throw ERRORS.webhookEndpointLimit(this.config.maxEndpointsPerTenant);
    }
    return { ...endpointView(row), secret: row.secret };
  }

  async list(tenantId: string): Promise<EndpointView[]> {
    return (await this.store.webhooks.list(tenantId)).map(endpointView);
  }

  async get(tenantId: string, endpointId: string): Promise<EndpointView> {
    const row = await this.store.webhooks.get(tenantId, endpointId);
    if (!row) throw ERRORS.notFound('Webhook endpoint');
    return endpointView(row);
  }

  /** The endpoint with its current secret: what creating or rotating it answered (for a retry's answer). */
  async withSecret(tenantId: string, endpointId: string): Promise<EndpointView & { secret: string }> {
    const row = await this.store.webhooks.get(tenantId, endpointId);
    if (!row) throw ERRORS.notFound('Webhook endpoint');
    return { ...endpointView(row), secret: row.secret };
  }

  async delete(tenantId: string, endpointId: string): Promise<void> {
    if (!(await this.store.webhooks.delete(tenantId, endpointId))) throw ERRORS.notFound('Webhook endpoint');
  }

  async rotateSecret(
    tenantId: string,
    endpointId: string,
    effect?: HeldKey,
  ): Promise<EndpointView & { secret: string }> {
    const until = new Date(this.clock.now().getTime() + this.config.secretOverlapMs).toISOString();
    const secret = newSecret();
    const row = await this.store.transaction(
      tenantId,
      async (tx) => {
        const rotated = await tx.webhooks.rotate(endpointId, secret, until);
        if (rotated) await tx.recordEffect(endpointId);
        return rotated;
      },
      effect,
    );
    if (!row) throw ERRORS.notFound('Webhook endpoint');
    return { ...endpointView(row), secret: row.secret };
  }

  async enable(tenantId: string, endpointId: string, effect?: HeldKey): Promise<EndpointView> {
    const row = await this.store.transaction(
      tenantId,
      async (tx) => {
        const enabled = await tx.webhooks.enable(endpointId);
        if (enabled) await tx.recordEffect(endpointId);
        return enabled;
      },
      effect,
    );
    if (!row) throw ERRORS.notFound('Webhook endpoint');
    return endpointView(row);
  }

  async attempts(tenantId: string, endpointId: string, limit: number) {
    await this.get(tenantId, endpointId);
    return this.store.webhooks.attempts(tenantId, endpointId, Math.min(limit, MAX_LISTED_ATTEMPTS));
  }
}
