import { ERRORS } from '../../kernel/errors.js';
import { type SweepPass, sweepInBatches } from '../../store/sweep.js';
import type { EventType, Store } from '../../store/types.js';
import type { Clock } from '../../kernel/time.js';
import { newestEvent } from '../../versions/events.js';

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
    // the newest version's events: the request's version step takes them down to the caller's
    return { items: page.items.map(newestEvent), lastId: page.lastId };
  }

  /**
   * Deletes events (with their deliveries) and delivery attempts past the retention, batch after batch
   * within the pass's budget; returns how many of each went.
   */
  async sweep(pass: SweepPass): Promise<{ events: number; attempts: number }> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs).toISOString();
    const removed = { events: 0, attempts: 0 };
    await sweepInBatches(async (limit) => {
      const batch = await this.store.events.sweep(before, limit);
      removed.events += batch.events;
      removed.attempts += batch.attempts;
      // a batch is full while either kind still has a backlog
      return Math.max(batch.events, batch.attempts);
    }, pass);
    return removed;
  }
}
