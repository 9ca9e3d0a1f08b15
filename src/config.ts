import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Everything the process reads from its environment, read once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  logLevel: string;
  /** Largest file an upload may declare. */
  maxUploadBytes: number;
  /** Size of every part but the last. */
  uploadPartSize: number;
  uploadTtlMs: number;
  /** How often expired uploads are swept. */
  sweepIntervalMs: number;
  /** Worker threads that parse PDFs; 0 runs no in-process diagnosis worker. */
  workerThreads: number;
  /** Wall-clock limit for one diagnosis task (one page, or opening the document). */
  taskTimeoutMs: number;
  /** Memory limit of a parser thread: the cap on its PDFium heap, and its V8 heap limit. */
  taskMemoryMb: number;
  /** Parser threads that open files at upload `complete`, apart from the runs' threads. */
  probeThreads: number;
  /** Unexpired pending uploads a tenant may have, and the bytes they may declare in all. */
  maxPendingUploadsPerTenant: number;
  maxPendingUploadBytesPerTenant: number;
  /** Part uploads in flight at once, per tenant and in the whole process. */
  maxConcurrentPartsPerTenant: number;
  maxConcurrentParts: number;
  /** A request body that sends nothing for this long is ended (and its temporary file removed). */
  bodyIdleTimeoutMs: number;
  /** Node's limits on a request: all its headers, and the whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Temporary files and unreferenced blobs at least this old are removed by the sweep (and at start). */
  leftoverMinAgeMs: number;
  /** Pages a document may have: `complete` refuses a PDF with more. */
  maxPages: number;
  /** Wall-clock limit for a whole run; past it the run fails. */
  runTimeoutMs: number;
  /** Runs a tenant may have queued at once; past it creating or rerunning a run answers 429. */
  maxQueuedRunsPerTenant: number;
  /** Pages whose thumbnails `report.html` shows (errors and warnings, the most severe first). */
  reportThumbnails: number;
  /** Rows of the per-page table in `report.html`; `report.json` always has every page. */
  reportHtmlPages: number;
  leaseMs: number;
  pointsPerPage: Record<'pdf-preflight' | 'pdf-text', number>;
  seedDemoTenant: boolean;
}

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

/** S3's limit, and the contract's bound on `part_number`. */
export const MAX_PART_COUNT = 10_000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = readConfig(env);
  if (Math.ceil(config.maxUploadBytes / config.uploadPartSize) > MAX_PART_COUNT) {
    throw new Error(
      `MAX_UPLOAD_BYTES / UPLOAD_PART_SIZE must be at most ${MAX_PART_COUNT} parts, got ${Math.ceil(config.maxUploadBytes / config.uploadPartSize)}`,
    );
  }
  return config;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const MiB = 1024 * 1024;
  return {
    port: intFromEnv(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    logLevel: env.LOG_LEVEL ?? 'info',
    maxUploadBytes: intFromEnv(env, 'MAX_UPLOAD_BYTES', 512 * MiB, 1),
    uploadPartSize: intFromEnv(env, 'UPLOAD_PART_SIZE', 8 * MiB, 1),
    uploadTtlMs: intFromEnv(env, 'UPLOAD_TTL_SECONDS', 24 * 3600, 1) * 1000,
    sweepIntervalMs: intFromEnv(env, 'UPLOAD_SWEEP_SECONDS', 300, 1) * 1000,
    workerThreads: intFromEnv(env, 'WORKER_THREADS', availableParallelism()),
    taskTimeoutMs: intFromEnv(env, 'TASK_TIMEOUT_MS', 10_000, 1),
    taskMemoryMb: intFromEnv(env, 'TASK_MEMORY_MB', 512, 64),
    probeThreads: intFromEnv(env, 'PROBE_THREADS', 1, 1),
    maxPages: intFromEnv(env, 'MAX_PAGES', 10_000, 1),
    leftoverMinAgeMs: intFromEnv(env, 'LEFTOVER_MIN_AGE_SECONDS', 3600) * 1000,
    maxPendingUploadsPerTenant: intFromEnv(env, 'MAX_PENDING_UPLOADS_PER_TENANT', 100, 1),
    maxPendingUploadBytesPerTenant: intFromEnv(
      env,
      'MAX_PENDING_UPLOAD_BYTES_PER_TENANT',
      20 * 1024 * MiB,
      1,
    ),
    maxConcurrentPartsPerTenant: intFromEnv(env, 'MAX_CONCURRENT_PARTS_PER_TENANT', 8, 1),
    maxConcurrentParts: intFromEnv(env, 'MAX_CONCURRENT_PARTS', 64, 1),
    bodyIdleTimeoutMs: intFromEnv(env, 'BODY_IDLE_TIMEOUT_MS', 30_000, 1),
    headersTimeoutMs: intFromEnv(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000, 1),
    requestTimeoutMs: intFromEnv(env, 'HTTP_REQUEST_TIMEOUT_MS', 300_000, 1),
    runTimeoutMs: intFromEnv(env, 'RUN_TIMEOUT_MS', 600_000, 1),
    maxQueuedRunsPerTenant: intFromEnv(env, 'MAX_QUEUED_RUNS_PER_TENANT', 1000, 1),
    reportThumbnails: intFromEnv(env, 'REPORT_THUMBNAILS', 12),
    reportHtmlPages: intFromEnv(env, 'REPORT_HTML_PAGES', 500, 1),
    leaseMs: intFromEnv(env, 'RUN_LEASE_MS', 30_000, 100),
    pointsPerPage: {
      'pdf-preflight': intFromEnv(env, 'POINTS_PER_PAGE_PREFLIGHT', 2),
      'pdf-text': intFromEnv(env, 'POINTS_PER_PAGE_TEXT', 1),
    },
    seedDemoTenant: env.SEED_DEMO_TENANT !== 'false',
  };
}
