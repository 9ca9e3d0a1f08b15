import { ERRORS } from '../../errors.js';
import { sweepInBatches } from '../../store/sweep.js';
import type { EventType, Store } from '../../store/types.js';
import type { Clock } from '../../time.js';

/**
 * The outbox as its readers see it: the events list, and the retention sweep. The writing itself happens in
 * the store, inside the transaction of each change an event tells of (src/store/types.ts, EventRepo).
 */
export class Events {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {}

  async list(tenantId: string, type: EventType | undefined, limit: number, startingAfter?: string) {
    const page = await this.store.events.list(tenantId, type, limit, startingAfter);
    if (!page) throw ERRORS.notFound('Event');
    return page;
  }

  /** Deletes events (with their deliveries) and delivery attempts past the retention; returns how many events. */
  async sweep(): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs).toISOString();
    return sweepInBatches((limit) => this.store.events.sweep(before, limit));
  }
}
