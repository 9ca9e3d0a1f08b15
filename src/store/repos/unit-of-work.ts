import type { EventDataJson, EventType } from '../../records/event.js';
import type { HeldKey } from '../held-key.js';
import type { RunChanges } from './runs.js';
import type { UploadChanges } from './uploads.js';
import type { WebhookChanges } from './webhooks.js';

/**
 * One transaction of one tenant's, opened by a service (`Store.transaction`): the changes it makes through
 * `runs`, `uploads` and `webhooks`, the events it emits and the effect it records on the request's
 * idempotency key commit together, or none of it does. Once it has committed, its `afterCommit` hooks run
 * and its events are published (the engine's step); the repositories do neither themselves. Part of the
 * storage layer's contract (../types.ts).
 *
 * The work reaches the database through the unit alone (on SQLite a statement outside it waits for it to
 * end), has no effect outside it but its hooks, and may run again: PostgreSQL retries a transaction that
 * met a serialization failure or a deadlock.
 */
export interface UnitOfWork {
  readonly tenantId: string;
  readonly runs: RunChanges;
  readonly uploads: UploadChanges;
  readonly webhooks: WebhookChanges;
  /** Records the event, and a pending delivery for each of the tenant's endpoints that takes its type. */
  emit(type: EventType, at: string, data: EventDataJson): Promise<void>;
  /**
   * Records `resourceId` as the effect of the request on the idempotency key the unit was opened with (a
   * retry after a lost answer then answers from it); nothing without a key. Throws HeldKeyLostError when a
   * retry took the key over meanwhile: the unit rolls back.
   */
  recordEffect(resourceId: string): Promise<void>;
  /** Runs `hook` once the unit has committed (never when it rolled back). */
  afterCommit(hook: () => void): void;
}

export interface UnitsOfWork {
  /** Runs `work` as one unit of the tenant's; `heldKey`: the idempotency key the request holds, if any. */
  transaction<T>(tenantId: string, work: (tx: UnitOfWork) => Promise<T>, heldKey?: HeldKey): Promise<T>;
}
