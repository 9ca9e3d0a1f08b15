import { describe, expect, it } from 'vitest';
import { runBooking } from '../../src/revenue/run-booking.js';
import type { RunOutcome, RunRow, TenantRepo, TenantRow } from '../../src/store/types.js';

/** The tenant repository as the booking rule sees it: an in-memory fake, one tenant or none. */
function tenantsWith(tenant?: TenantRow): Pick<TenantRepo, 'get'> {
  return { get: async (id) => (tenant && tenant.id === id ? tenant : undefined) };
}

const tenant: TenantRow = {
  id: 't1',
  name: 'acme',
  currency: 'EUR',
  price_per_point: 25,
  created_at: '2026-01-01T00:00:00.000Z',
  suspended_at: null,
  api_version: '2026-11-29',
  external_id: null,
  metadata: '{}',
  deletion_requested_at: null,
  erase_at: null,
};
const run = { id: 'r1', tenant_id: 't1', target: 'pdf-print', attempt: 2 } as RunRow;
const outcome = (points: number): RunOutcome => ({
  status: 'succeeded',
  total_tasks: 3,
  completed_tasks: 3,
  failed_tasks: 0,
  progress: 100,
  points_consumed: points,
  output_files: ['report.json'],
  error: null,
  error_code: null,
  completed_at: '2026-11-26T10:00:00.000Z',
});

describe("revenue's rule for a run's execution", () => {
  it("books its points at the tenant's price, in the tenant's currency, when the run completed", async () => {
    const booked = await runBooking(tenantsWith(tenant))(run, outcome(6));
    expect(booked).toMatchObject({
      tenant_id: 't1',
      type: 'tech',
      amount: 150,
      currency: 'EUR',
      source: 'run',
      run_id: 'r1',
      external_id: null,
      occurred_at: '2026-11-26T10:00:00.000Z',
      created_at: '2026-11-26T10:00:00.000Z',
      description: 'Diagnosis run r1 (pdf-print, attempt 2): 6 points',
    });
  });

  it('books nothing for no points, a price of 0, or a tenant that is gone', async () => {
    expect(await runBooking(tenantsWith(tenant))(run, outcome(0))).toBeNull();
    expect(await runBooking(tenantsWith({ ...tenant, price_per_point: 0 }))(run, outcome(6))).toBeNull();
    expect(await runBooking(tenantsWith())(run, outcome(6))).toBeNull();
  });

  it('refuses an amount past the safe integer range rather than booking a rounded one', async () => {
    const dear = { ...tenant, price_per_point: Number.MAX_SAFE_INTEGER };
    await expect(runBooking(tenantsWith(dear))(run, outcome(2))).rejects.toThrow(/safe integer/);
  });
});
