/**
 * Takes authenticated requests in turns across tenants. Node runs a request from its arrival to its first
 * real wait in one go, and a burst of one tenant's requests (64 parts at once, say) would otherwise all be
 * handled before a request of another tenant that came a moment later. Each request waits for its turn
 * after authentication; one request is let through per turn of the event loop, the tenants in rotation,
 * and requests that arrive meanwhile join the rotation, so another tenant waits for about one request of
 * each busy tenant, not for all of them.
 */
export class FairTurns {
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Tenants with waiting requests, in rotation order. */
  private readonly rotation: string[] = [];
  private scheduled = false;

  take(tenantId: string): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenantId);
      if (queue) queue.push(resolve);
      else {
        this.waiting.set(tenantId, [resolve]);
        this.rotation.push(tenantId);
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // the check phase comes after the poll phase has read every request that arrived meanwhile
    setImmediate(() => this.releaseOne());
  }

  private releaseOne(): void {
    this.scheduled = false;
    const tenantId = this.rotation.shift();
    if (tenantId === undefined) return;
    const queue = this.waiting.get(tenantId)!;
    const next = queue.shift()!;
    if (queue.length > 0) this.rotation.push(tenantId);
    else this.waiting.delete(tenantId);
    next();
    if (this.rotation.length > 0) this.schedule();
  }
}
