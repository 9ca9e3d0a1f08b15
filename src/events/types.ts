import type { EventType } from '../store/types.js';
import { EVENT_TYPES } from '../store/outbox-core.js';

export type { EventType };
export { EVENT_TYPES };

/** What an endpoint's `events` holds to take every type, now and later (as Stripe's `enabled_events`). */
export const EVERY_EVENT = '*';
