import { randomUUID } from 'node:crypto';
import type { LedgerEntry, RunOutcome, RunRow, TenantRepo } from '../store/types.js';
import { multiplyMinor } from './money.js';

/** What an execution of a run earns: its points at the tenant's price, as one `tech` ledger entry. */
export type RunBooking = (run: RunRow, outcome: RunOutcome) => Promise<LedgerEntry | null>;

/**
 * Revenue's rule for runs: an execution that consumed points books them at the tenant's price per point,
 * in the tenant's currency, at the time the run completed. Nothing is booked for no points or a price of 0.
 * The queue books the entry in the transaction that finishes the execution.
 */
export function runBooking(tenants: Pick<TenantRepo, 'get'>): RunBooking {
  return async (run, outcome) => {
    if (outcome.points_consumed <= 0) return null;
    const tenant = await tenants.get(run.tenant_id);
    if (!tenant || tenant.price_per_point === 0) return null;
    return {
      id: randomUUID(),
      tenant_id: tenant.id,
      type: 'tech',
      amount: multiplyMinor(outcome.points_consumed, tenant.price_per_point),
      currency: tenant.currency,
      description: `Diagnosis run ${run.id} (${run.target}, attempt ${run.attempt}): ${outcome.points_consumed} points`,
      source: 'run',
      run_id: run.id,
      external_id: null,
      occurred_at: outcome.completed_at,
      created_at: outcome.completed_at,
    };
  };
}
