import { randomUUID } from 'node:crypto';
import type { EventType, WebhookEndpointRow } from './types.js';

/**
 * What both engines share about the event outbox and webhook endpoints: how an endpoint's event types are
 * kept in one text column, and how a stored endpoint row becomes the record.
 */

export const newEventId = (): string => randomUUID();

/**
 * An endpoint's types as one column, `,run.failed,run.succeeded,`: a delivery fan-out then matches a type
 * with one substring test (`typeNeedle`). Null is every type.
 */
export function eventTypesColumn(types: EventType[] | null): string | null {
  return types === null ? null : `,${types.join(',')},`;
}

export function typeNeedle(type: EventType): string {
  return `,${type},`;
}

export interface EndpointRecord extends Omit<WebhookEndpointRow, 'events'> {
  events: string | null;
}

export function toEndpoint(row: EndpointRecord): WebhookEndpointRow;
export function toEndpoint(row: EndpointRecord | undefined): WebhookEndpointRow | undefined;
export function toEndpoint(row: EndpointRecord | undefined): WebhookEndpointRow | undefined {
  if (!row) return undefined;
  return {
    ...row,
    events: row.events === null ? null : (row.events.split(',').filter(Boolean) as EventType[]),
  };
}

export const ENDPOINT_COLUMNS = `id, tenant_id, url, events, description, status, secret, previous_secret,
  previous_secret_until, failing_since, created_at`;

/** A delivery's columns, with its event's and its endpoint's, as both engines' claims select them. */
export interface DeliveryRecord extends EndpointRecord {
  event_id: string;
  event_type: EventType;
  body: string;
  attempts: number;
}

/** A due delivery a claim may take. */
export interface DueDelivery {
  endpoint: string;
  event: string;
}

/** The leases in force, per endpoint and per tenant, from rows of (endpoint, tenant, count). */
export function tallyLeases(leased: { endpoint: string; tenant: string; n: number }[]) {
  const perEndpoint = new Map(leased.map((l) => [l.endpoint, l.n]));
  const perTenant = new Map<string, number>();
  for (const l of leased) perTenant.set(l.tenant, (perTenant.get(l.tenant) ?? 0) + l.n);
  return { perEndpoint, perTenant };
}

/**
 * Both engines' fair pick: the tenants' queues in the order given (the fewest under lease first), one
 * delivery per tenant per round, never more than `perEndpoint` under lease for one endpoint (`leased` is
 * counted up as deliveries are picked), until `max` are taken.
 */
export function pickFairly(
  queues: DueDelivery[][],
  leased: Map<string, number>,
  perEndpoint: number,
  max: number,
): DueDelivery[] {
  const picked: DueDelivery[] = [];
  for (let any = true; any && picked.length < max;) {
    any = false;
    for (const queue of queues) {
      while (queue.length > 0 && picked.length < max) {
        const next = queue.shift()!;
        const held = leased.get(next.endpoint) ?? 0;
        if (held >= perEndpoint) continue;
        leased.set(next.endpoint, held + 1);
        picked.push(next);
        any = true;
        break;
      }
    }
  }
  return picked;
}
