/** Connections lost under load, and a database that goes away: 503 with Retry-After, never a 500. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ DATABASE_POOL_SIZE: '4' });
});
afterAll(async () => {
  await h.close();
});

async function terminateServerConnections(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'open-tenant-%'`,
    );
    return Number(rows[0]!.n);
  } finally {
    await admin.end();
  }
}

describe('PostgreSQL connections killed while requests run', () => {
  it('every answer is 200 or 503 unavailable with Retry-After, and the service recovers by itself', async () => {
    const url = h.config.database!.url;
    const statuses = new Map<number, number>();
    let stop = false;
    const client = async () => {
      while (!stop) {
        const res = await h.request('GET', '/api/open/runs?limit=5');
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503) {
          expect(res.body.error).toBe('unavailable');
          expect(res.headers.get('retry-after')).toBe('1');
        }
      }
    };
    const clients = Array.from({ length: 6 }, client);
    let killed = 0;
    for (let i = 0; i < 8; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      killed += await terminateServerConnections(url);
    }
    stop = true;
    await Promise.all(clients);
    expect(killed).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
    // afterwards the pool has replaced what was killed
    expect((await h.request('GET', '/api/open/runs?limit=5')).status).toBe(200);
    expect((await h.request('GET', '/readyz', { token: null })).status).toBe(200);
  });
});
