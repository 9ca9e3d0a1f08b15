import type { AttemptRecord, ClaimedDelivery, ClaimRequest, Store } from '../../store/types.js';

type RecordAndClaim = Pick<Store['webhooks'], 'recordAndClaim'>;

const RECORD_BATCH_MAX = 64;
/** How long the first attempt of a batch waits for others before the batch is written. */
const RECORD_GATHER_MS = 2;

/**
 * Writes the attempts that ended within a few milliseconds of each other in one transaction, which also claims
 * as many due deliveries as those free slots: a dispatcher draining a backlog commits once per batch, not
 * once to record and once to claim. The batch is written as soon as every delivery in flight is waiting for
 * it (waiting out the few milliseconds then would only keep every slot idle). Each delivery still waits for
 * its own record (its lease is held until then), so nothing is acknowledged before it is durable.
 */
export class AttemptLog {
  private queue: { entry: AttemptRecord; settle: (ok: boolean) => void; fail: (error: unknown) => void }[] =
    [];
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly deliveries: RecordAndClaim,
    /** The claim for `free` slots, made with the record (max 0: none, the dispatcher is stopping). */
    private readonly nextClaim: (free: number) => ClaimRequest,
    private readonly claimed: (deliveries: ClaimedDelivery[]) => void,
    /** Deliveries being sent or waiting for their record. */
    private readonly inFlight: () => number,
  ) {}

  record(entry: AttemptRecord): Promise<boolean> {
    return new Promise<boolean>((settle, fail) => {
      this.queue.push({ entry, settle, fail });
      // every delivery in flight waits for this commit: no answer is left to gather
      if (this.queue.length >= RECORD_BATCH_MAX || this.queue.length >= this.inFlight()) this.flush();
      // answers come one by one: a few milliseconds gather several into one commit
      else this.timer ??= setTimeout(() => this.flush(), RECORD_GATHER_MS);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue.splice(0);
    if (batch.length === 0) return;
    this.deliveries
      .recordAndClaim(
        batch.map((b) => b.entry),
        this.nextClaim(batch.length),
      )
      .then(
        ({ recorded, claimed }) => {
          // the new deliveries take the slots of those recorded, before these count themselves out
          this.claimed(claimed);
          batch.forEach((b, i) => b.settle(recorded[i] ?? false));
        },
        (error: unknown) => batch.forEach((b) => b.fail(error)),
      );
  }
}
