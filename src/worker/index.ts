import type { Services } from '../services.js';
import { runBooking } from '../revenue/run-booking.js';
import { RunWorker } from './runner.js';

/** A run worker over the process's services; it parses on the shared parser pool. */
export function createRunWorker(services: Services): RunWorker {
  const { config } = services;
  const pool = services.pdfPool();
  const worker = new RunWorker(
    services.store.runs,
    runBooking(services.store.tenants),
    {
      pool,
      blobs: services.blobs,
      clock: services.clock,
      pointsPerPage: config.pointsPerPage,
      profiles: { printMinPpi: config.printMinPpi },
      runTimeoutMs: config.runTimeoutMs,
      report: { thumbnails: config.reportThumbnails, htmlPages: config.reportHtmlPages },
    },
    services.clock,
    services.logger,
    // twice as many runs as threads: while one run writes its report and books, the next one's pages keep
    // the threads busy
    { concurrency: pool.size * 2, leaseMs: config.leaseMs, pollMs: 500, maxClaims: 3 },
  );
  services.runs.queued.listen(() => worker.nudge());
  return worker;
}
