import type { Schemas } from '../contract.js';
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
 * The contract's Event around its data's JSON as stored (a run's or an upload's): the data's bytes are kept
 * as they are, so an event repeats its object exactly as GET answered it then.
 */
export type EventData = Schemas['Event']['data'];
export type EventDataJson = JsonText<EventData>;
export type EventJson = JsonText<Schemas['Event']>;

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
): JsonText<Schemas['Event']> {
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(createdAt)},"data":${data}}` as JsonText<
    Schemas['Event']
  >;
}
