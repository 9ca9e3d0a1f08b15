import type { Schemas } from '../contract/schemas.js';
import type { EventJson } from '../records/event.js';
import type { JsonText } from '../records/json-text.js';
import type { ApiVersion } from './change.js';
import { changesOf } from './registry.js';

/** An event as the newest version writes it. */
export type NewestEventJson = JsonText<Schemas['Event']>;

const DATA = ',"data":';

/**
 * A stored event as the newest version writes it: its object under `data.object`. Stored bodies keep the
 * shape they were written in (`{..., "data": <object>}`, records/event.ts: replays and signatures repeat
 * their bytes), so the newest shape is made on the way out, by wrapping the stored object's bytes as they
 * are: no parse, on every event listed, streamed and delivered.
 */
export function newestEvent(stored: EventJson): NewestEventJson {
  const at = stored.indexOf(DATA);
  if (at < 0 || !stored.endsWith('}')) throw new Error('a stored event body without its data');
  return `${stored.slice(0, at)},"data":{"object":${stored.slice(at + DATA.length, -1)}}}` as NewestEventJson;
}

/**
 * A stored event as `version` writes it (`operation`: the operation it goes out through, or `webhook`):
 * the newest shape, taken down by every change since `version`, newest first.
 */
export function eventAt(stored: EventJson, version: ApiVersion, operation: string): string {
  const newest = newestEvent(stored);
  const changes = changesOf(version, operation).filter((change) => change.downEvent);
  if (changes.length === 0) return newest;
  let event = JSON.parse(newest) as Record<string, unknown>;
  for (const change of changes) event = change.downEvent!(event);
  return JSON.stringify(event);
}
