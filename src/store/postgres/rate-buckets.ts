import type { RateBucketRepo } from '../types.js';
import type { Postgres } from './database.js';

export function postgresRateBuckets(db: Postgres): RateBucketRepo {
  // one statement: the refill by the server's clock, the take and the write, under the row's lock
  const take = `
    WITH clock AS (SELECT clock_timestamp() AS at),
    current AS (
      SELECT LEAST($4::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM (clock.at - updated_at))) * $3::float8) AS level
      FROM rate_buckets, clock WHERE key = $1 FOR UPDATE OF rate_buckets)
    UPDATE rate_buckets SET tokens = current.level - LEAST($2::float8, FLOOR(current.level)), updated_at = clock.at
    FROM current, clock WHERE key = $1
    RETURNING LEAST($2::float8, FLOOR(current.level))::float8 AS granted, rate_buckets.tokens AS left`;
  return {
    async take(key, want, perSecond, burst) {
      for (;;) {
        const [row] = await db.query<{ granted: number; left: number }>(
          take,
          [key, want, perSecond, burst],
          'rate.take',
        );
        if (row) return row;
        await db.query(
          'INSERT INTO rate_buckets (key, tokens, updated_at) VALUES ($1, $2, clock_timestamp()) ON CONFLICT DO NOTHING',
          [key, burst],
          'rate.create',
        );
      }
    },
    async giveBack(key, tokens, burst) {
      await db.execute(
        'UPDATE rate_buckets SET tokens = LEAST($3::float8, tokens + $2::float8) WHERE key = $1',
        [key, tokens, burst],
        'rate.give-back',
      );
    },
    async prune(fullAfterSeconds, limit) {
      // no index on updated_at: it would cost every take its HOT update; a pass scans the table instead
      const gone = await db.query(
        `DELETE FROM rate_buckets WHERE key IN (
           SELECT key FROM rate_buckets WHERE updated_at < clock_timestamp() - make_interval(secs => $1) LIMIT $2)
         RETURNING 1 AS one`,
        [fullAfterSeconds, limit],
        'rate.prune',
      );
      return gone.length;
    },
  };
}
