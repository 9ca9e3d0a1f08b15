import { ERRORS } from '../errors.js';
import type { EventType, Store } from '../store/types.js';
import type { Clock } from '../time.js';

/** The events list, and the retention sweep. */
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
  async sweep(batches = 20, batch = 500): Promise<number> {
    const before = new Date(this.clock.now().getTime() - this.retentionMs).toISOString();
    let removed = 0;
    for (let i = 0; i < batches; i++) {
      const n = await this.store.events.sweep(before, batch);
      removed += n;
      if (n < batch) break;
    }
    return removed;
  }
}
