import type { BlobStore } from '../blobs/blob-store.js';
import type { Config } from '../kernel/config.js';
import type { Logger } from '../kernel/logger.js';
import type { PdfPool } from '../pdf/pool.js';
import type { LeaseKeeping } from '../queue/claim-loop.js';
import { runBooking } from '../revenue/run-booking.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../kernel/time.js';
import { RunWorker } from './runner.js';

/** What a run worker works with: the process's own, or those of the thread it runs on. */
export interface RunWorkerDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  logger: Logger;
  pool: PdfPool;
  /** Who renews the leases of the runs it executes (default: its own event loop). */
  leases?: LeaseKeeping;
}

/** A run worker that parses on `pool`. */
export function createRunWorker({
  config,
  store,
  blobs,
  clock,
  logger,
  pool,
  leases,
}: RunWorkerDeps): RunWorker {
  return new RunWorker(
    store.runs,
    runBooking(store.tenants),
    {
      pool,
      blobs,
      clock,
      pointsPerPage: config.pointsPerPage,
      profiles: { printMinPpi: config.printMinPpi },
      runTimeoutMs: config.runTimeoutMs,
      report: { thumbnails: config.reportThumbnails, htmlPages: config.reportHtmlPages },
    },
    clock,
    logger,
    // twice as many runs as threads: while one run writes its report and books, the next one's pages keep
    // the threads busy
    { concurrency: pool.size * 2, leaseMs: config.leaseMs, pollMs: 500, maxClaims: 3, leases },
  );
}
