import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOnce } from '../../src/start/sweep-pass.js';
import { engine } from '../helpers/engine.js';
import { type Harness, startHarness } from '../helpers/harness.js';

const BACKLOG = 50_000;
const LONG_AGO = '2020-01-01T00:00:00.000Z';

/** `count` numbered rows from one INSERT ... SELECT, on either engine. */
function numbered(count: number, insert: string, select: string): string {
  return engine === 'postgres'
    ? `${insert} ${select.replaceAll('@i', 'i::text')} FROM generate_series(1, ${count}) AS i`
    : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) ${insert} ${select.replaceAll('@i', 'i')} FROM n`;
}

async function count(h: Harness, table: string): Promise<number> {
  const [row] = await h.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`);
  return Number(row!.n);
}

async function fillBacklog(h: Harness, rows: number): Promise<void> {
  const tenant = h.tenant.tenant_id;
  await h.query(
    numbered(
      rows,
      'INSERT INTO idempotency_keys (tenant_id, key, fingerprint, lock_token, locked_until, created_at, expires_at)',
      `SELECT '${tenant}', 'old-' || @i, 'fp', 'token', '${LONG_AGO}', '${LONG_AGO}', '${LONG_AGO}'`,
    ),
  );
  await h.query(
    numbered(
      rows,
      'INSERT INTO events (id, tenant_id, type, created_at, body)',
      `SELECT 'evt_old_' || @i, '${tenant}', 'run.created', '${LONG_AGO}', '{}'`,
    ),
  );
  await h.query(
    numbered(
      rows,
      'INSERT INTO webhook_attempts (endpoint_id, tenant_id, event_id, attempt, attempted_at, duration_ms, response_body)',
      `SELECT 'gone', '${tenant}', 'evt_old_' || @i, 1, '${LONG_AGO}', 1, ''`,
    ),
  );
  if (engine === 'postgres')
    await h.query(
      numbered(
        rows,
        'INSERT INTO rate_buckets (key, tokens, updated_at)',
        `SELECT 'address:10.0.' || @i, 0, now() - interval '1 hour'`,
      ),
    );
}

describe('the sweep keeps up: a pass goes on until it caught up', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ PARSER_THREADS: '0' });
  });
  afterAll(async () => {
    await h.close();
  });

  it(`removes ${BACKLOG} expired keys, events and attempts (and full rate buckets) in one pass`, async () => {
    await fillBacklog(h, BACKLOG);
    // a live bucket stays
    if (engine === 'postgres')
      await h.query(
        "INSERT INTO rate_buckets (key, tokens, updated_at) VALUES ('tenant:live', 3, now() + interval '1 hour')",
      );
    const started = performance.now();
    const report = await sweepOnce(h.server.services);
    const seconds = (performance.now() - started) / 1000;
    // (the server's own pass at start may have taken some of them: what counts is that none are left)
    expect(await count(h, "idempotency_keys WHERE key LIKE 'old-%'")).toBe(0);
    expect(await count(h, "events WHERE id LIKE 'evt_old_%'")).toBe(0);
    expect(await count(h, "webhook_attempts WHERE endpoint_id = 'gone'")).toBe(0);
    if (engine === 'postgres') {
      expect(await count(h, "rate_buckets WHERE key LIKE 'address:10.0.%'")).toBe(0);
      expect(await count(h, "rate_buckets WHERE key = 'tenant:live'")).toBe(1);
    }
    console.info(
      `swept ${BACKLOG} of each in ${seconds.toFixed(1)} s on ${engine}: ${JSON.stringify(report)}`,
    );
  });
});
