import type { Config } from '../kernel/config.js';
import type { Logger } from '../kernel/logger.js';
import { Metrics } from '../metrics/metrics.js';
import { Revenue } from '../revenue/service.js';
import { Runs } from '../runs/service.js';
import type { AuditRow, Store } from '../store/types.js';
import { Tenants } from '../tenants/service.js';
import { type Clock, systemClock } from '../kernel/time.js';
import type { BlobStore } from '../blobs/blob-store.js';
import { Uploads } from '../uploads/service.js';
import { type PdfPool, parserPool, TaskFailure } from '../pdf/pool.js';
import { RULE_JUDGES_MODULE } from '../rules/object-judges.js';
import { UnreadablePdfError } from '../uploads/pdf-probe.js';
import { WebhookEndpoints } from '../events/endpoints/endpoints.js';
import { Events } from '../events/outbox/log.js';
import { EventStreams } from '../events/streaming/stream-hub.js';
import { IdempotencyKeys } from '../idempotency/keys.js';
import { AdminTokens } from '../platform/admin-tokens.js';
import { auditView } from '../platform/audit.js';
import { TenantExports } from '../offboarding/exports.js';

/** The domain, wired once per process; handlers reach it through their scope. */
export interface Services {
  config: Config;
  clock: Clock;
  logger: Logger;
  store: Store;
  blobs: BlobStore;
  metrics: Metrics;
  /** Parser threads for runs, created on first use: the admin CLI never starts them. */
  pdfPool(): PdfPool;
  tenants: Tenants;
  /** The platform's keys to the admin API. */
  adminTokens: AdminTokens;
  revenue: Revenue;
  uploads: Uploads;
  runs: Runs;
  events: Events;
  webhooks: WebhookEndpoints;
  /** Idempotency keys: what makes a POST once-only. */
  idempotency: IdempotencyKeys;
  /** This process's live event streams. */
  streams: EventStreams;
  /** Exports of a tenant's data, built in the background. */
  exports: TenantExports;
  /** Told every audit row a change outside the tenants service writes (the erasure of a tenant). */
  logAudit(row: AuditRow): void;
  close(): Promise<void>;
}

export function createServices(
  config: Config,
  store: Store,
  blobs: BlobStore,
  logger: Logger,
  clock: Clock = systemClock,
): Services {
  const metrics = new Metrics(store, clock);
  let pool: PdfPool | undefined;
  const pdfPool = () =>
    (pool ??= parserPool(config, metrics, {
      size: Math.max(1, config.parserThreads),
      judges: RULE_JUDGES_MODULE,
    }));
  // an upload's `complete` opens its file on threads of its own: it never waits behind runs
  let probePool: PdfPool | undefined;
  const probe = (file: string, tenantId: string) => {
    probePool ??= parserPool(config, metrics, { size: config.probeThreads });
    const threads = probePool;
    // the file is looked at once: its thread does not keep it open
    return threads
      .run({ kind: 'probe', path: file }, tenantId)
      .catch((error: unknown) => {
        // the parser's failure, in the uploads domain's terms
        if (!(error instanceof TaskFailure)) throw error;
        throw new UnreadablePdfError(
          error.kind === 'invalid_pdf' ? error.message : `The PDF could not be opened: ${error.message}`,
        );
      })
      .finally(() => threads.forget(file));
  };
  // every admin change is a log line too, beside its audit row
  const logAudit = (row: AuditRow) => logger.info({ audit: auditView(row) }, 'admin action');
  const runs = new Runs(store, blobs, clock, config.maxQueuedRunsPerTenant);
  runs.outputMissing.listen((what) =>
    logger.error(what, 'a run output listed in its record is missing from the blob store'),
  );
  const uploads = new Uploads(store, blobs, probe, config, clock, logger);
  uploads.partStored.listen((bytes) => metrics.uploaded(bytes));
  const streams = new EventStreams(store, config.events, clock, logger);
  metrics.watchStreams(() => streams.stats());
  const tenants = new Tenants(store, clock, logAudit);
  return {
    config,
    clock,
    logger,
    logAudit,
    exports: new TenantExports(store, blobs, tenants, clock, logger, logAudit),
    metrics,
    store,
    blobs,
    pdfPool,
    tenants,
    adminTokens: new AdminTokens(store, clock, logAudit),
    revenue: new Revenue(store, clock, logAudit),
    uploads,
    runs,
    events: new Events(store, clock, config.events.retentionMs),
    webhooks: new WebhookEndpoints(store, config.webhooks, clock),
    idempotency: new IdempotencyKeys(store, clock, config),
    streams,
    async close() {
      streams.close();
      await Promise.all([pool?.close(), probePool?.close()]);
    },
  };
}
