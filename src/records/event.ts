import type { Schemas } from '../contract.js';
import type { JsonText } from './json-text.js';

/**
 * The contract's Event around its data's JSON as stored (a run's or an upload's): the data's bytes are kept
 * as they are, so an event repeats its object exactly as GET answered it then.
 */
export function eventJson(
  id: string,
  type: Schemas['EventType'],
  createdAt: string,
  data: JsonText,
): JsonText {
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(createdAt)},"data":${data}}` as JsonText;
}
