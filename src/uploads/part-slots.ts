import { ERRORS } from '../kernel/errors.js';

/** Seconds a caller refused a part slot is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Admission for part bodies: each holds a socket and a temporary file while it streams, so one tenant may
 * have only so many in flight (429), and the process only so many in all (503).
 */
export class PartSlots {
  private total = 0;
  private readonly perTenant = new Map<string, number>();

  constructor(
    private readonly maxPerTenant: number,
    private readonly maxTotal: number,
  ) {}

  /** Part bodies being received now, in the whole process. */
  get inFlight(): number {
    return this.total;
  }

  acquire(tenantId: string): () => void {
    const mine = this.perTenant.get(tenantId) ?? 0;
    if (mine >= this.maxPerTenant) {
      throw ERRORS.tooManyConcurrentParts(this.maxPerTenant, RETRY_AFTER_SECONDS);
    }
    if (this.total >= this.maxTotal) {
      throw ERRORS.partsBusy(RETRY_AFTER_SECONDS);
    }
    this.total++;
    this.perTenant.set(tenantId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perTenant.get(tenantId) ?? 1) - 1;
      if (left === 0) this.perTenant.delete(tenantId);
      else this.perTenant.set(tenantId, left);
    };
  }
}
