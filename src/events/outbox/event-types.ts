/**
 * The events there are: the vocabulary of the events domain, which the store's outbox writes (in the same
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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
