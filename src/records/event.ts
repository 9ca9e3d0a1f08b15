import type { Schemas } from '../contract/schemas.js';
import type { JsonText } from './json-text.js';

/**
 * The events there are: the vocabulary the store's outbox writes (in the same
 * transaction as the change each tells of) and every reader, list, stream and webhook, shares. In the
 * contract's order (openapi.yaml `EventType`).
 */
export const EVENT_TYPES = [
  'run.created',
  'run.requeued',
  'run.started',
  'run.succeeded',
  'run.failed',
  'run.cancelled',
  'upload.completed',
] as const satisfies readonly Schemas['EventType'][];

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * An event as it is stored: the contract's Event as version 2026-11-29 wrote it, its object's JSON as
 * `data` (a run's or an upload's). The data's bytes are kept as they are, so an event repeats its object
 * exactly as GET answered it then; every reader renders it at its version (src/versions/events.ts).
 */
export type EventData = Schemas['EventData']['object'];
export type EventDataJson = JsonText<EventData>;
export type StoredEventBody = Omit<Schemas['Event'], 'data'> & { data: EventData };
export type EventJson = JsonText<StoredEventBody>;

/**
 * The version of the stored event bodies: the envelope below, and the objects in `data` (a run as `runView`
 * renders it, an upload as `uploadView` does). Stored events are never rewritten (replays and webhook
 * signatures repeat them byte for byte), so a change of any of them raises this, and says so in the contract:
 * readers then meet both. `test/unit/persisted-formats.test.ts` fails on a change without it.
 */
export const EVENT_BODY_VERSION = 1;

export function eventJson(
  id: string,
  type: EventType,
  createdAt: string,
  data: JsonText<EventData>,
): EventJson {
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(createdAt)},"data":${data}}` as EventJson;
}
