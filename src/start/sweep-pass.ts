import { pruneSharedBuckets } from '../rate-limit/index.js';
import type { Services } from '../composition/services.js';
import { sweepPass } from '../store/sweep.js';
import { eraseDueTenants } from '../offboarding/erasure.js';

export interface SweepReport {
  expiredUploads: number;
  leftovers: number;
  idempotencyKeys: number;
  events: number;
  webhookAttempts: number;
  rateBuckets: number;
  erasedTenants: number;
}

/**
 * One pass of the periodic sweep: expired uploads, stray blobs, idempotency keys, events and delivery
 * attempts past their time, full rate buckets, and tenants past their grace period after a deletion. Each goes batch after batch (`SWEEP_BATCH_ROWS`) until
 * it caught up or the pass's budget (`SWEEP_BUDGET_SECONDS`, shared by all) is spent.
 */
export async function sweepOnce(services: Services): Promise<SweepReport> {
  const { config } = services;
  const pass = sweepPass(config.sweep);
  const expiredUploads = await services.uploads.sweepExpired(pass);
  const leftovers = await services.uploads.sweepLeftovers(config.leftoverMinAgeMs);
  const idempotencyKeys = await services.idempotency.sweepExpired(pass);
  const { events, attempts } = await services.events.sweep(pass);
  const rateBuckets = await pruneSharedBuckets(config, services.store, pass);
  const erasedTenants = await eraseDueTenants(
    services.store,
    services.blobs,
    services.clock,
    services.logAudit,
  );
  return {
    expiredUploads,
    leftovers,
    idempotencyKeys,
    events,
    webhookAttempts: attempts,
    rateBuckets,
    erasedTenants,
  };
}
