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
