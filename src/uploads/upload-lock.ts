import { randomUUID } from 'node:crypto';
import { ERRORS } from '../kernel/errors.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../kernel/time.js';
import { KeyedLock } from './keyed-lock.js';

const POLL_MS = 25;

/**
 * One request at a time works on an upload's state (a part landing, complete, abort, the expiry sweep),
 * across every process on the database: a lease in the upload's row, renewed while it is held. Within a
 * process, callers queue on an in-memory lock first, so they do not poll the database against each other.
 */
export class UploadLock {
  private readonly local = new KeyedLock();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** How long a caller waits for an upload another request is working on before it is told to retry. */
    private readonly waitMs: number,
    /** How long a lease lasts unless renewed; a process that died holding one blocks its upload this long. */
    private readonly leaseMs: number,
  ) {}

  run<T>(uploadId: string, fn: () => Promise<T>): Promise<T> {
    return this.local.run(uploadId, async () => {
      const holder = randomUUID();
      const take = () => {
        const now = this.clock.now().getTime();
        return this.store.uploads.lease(
          uploadId,
          holder,
          new Date(now + this.leaseMs).toISOString(),
          new Date(now).toISOString(),
        );
      };
      const deadline = Date.now() + this.waitMs;
      for (;;) {
        const state = await take();
        // with no row there is nothing to guard: fn finds that out and answers 404 or 409
        if (state !== 'busy') break;
        if (Date.now() > deadline) {
          throw ERRORS.uploadBusy();
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      const renewal = setInterval(() => void take().catch(() => undefined), this.leaseMs / 5);
      renewal.unref();
      try {
        return await fn();
      } finally {
        clearInterval(renewal);
        await this.store.uploads.release(uploadId, holder).catch(() => undefined);
      }
    });
  }
}
