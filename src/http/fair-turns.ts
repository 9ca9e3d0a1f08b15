import type { Authenticated, Stage } from './state.js';

/**
 * Requests let through per turn of the event loop, taken from the tenants in rotation. One per turn cost the
 * run list ~40% of its throughput under 32 connections of one tenant (a loop iteration and an epoll call per
 * request; measured with wrk against the same build without turns); 16 keep that cost out of sight while a
 * request of another tenant still waits for at most 16 request starts, not for a whole burst.
 */
const PER_TURN = 16;

/**
 * Takes authenticated requests in turns across tenants. Node runs a request from its arrival to its first
 * real wait in one go, and a burst of one tenant's requests (64 parts at once, say) would otherwise all be
 * handled before a request of another tenant that came a moment later. Each request waits for its turn
 * after authentication; a few requests are let through per turn of the event loop, the tenants in rotation,
 * and requests that arrive meanwhile join the rotation, so another tenant waits for a turn's few requests,
 * not for all of a burst.
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
    setImmediate(() => this.releaseTurn());
  }

  private releaseTurn(): void {
    this.scheduled = false;
    for (let released = 0; released < PER_TURN; released++) {
      const tenantId = this.rotation.shift();
      if (tenantId === undefined) return;
      const queue = this.waiting.get(tenantId)!;
      const next = queue.shift()!;
      if (queue.length > 0) this.rotation.push(tenantId);
      else this.waiting.delete(tenantId);
      next();
    }
    if (this.rotation.length > 0) this.schedule();
  }
}

/** The fair turn step: an authenticated request waits for its tenant's turn before its body is read. */
export function takeTurn(turns: FairTurns): Stage<Authenticated, Authenticated> {
  return async (_ctx, state, next) => {
    const tenantId = state.principal?.tenantId;
    if (tenantId !== undefined) await turns.take(tenantId);
    return next(state);
  };
}
