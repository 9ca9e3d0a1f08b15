import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { Schemas } from '../contract/schemas.js';

/** Everything the process reads from its environment, read once at start. */
export interface Config {
  port: number;
  /**
   * The interface the public listener (and the metrics one) binds: loopback unless HOST is set, so that the
   * first `npm start`, which creates a demo tenant, exposes nothing to the network; a deployment sets
   * `HOST=0.0.0.0`.
   */
  host: string;
  /** Prometheus metrics on a port of their own; 0 serves none. */
  metricsPort: number;
  /**
   * The admin API's listener (ADMIN_PORT): off unless set; 0 takes a free port. Bound to ADMIN_HOST, which
   * is loopback unless set: the platform's own API is never exposed by accident.
   */
  adminPort: number | undefined;
  adminHost: string;
  dataDir: string;
  /** PostgreSQL instead of the SQLite file under dataDir, when DATABASE_URL is set. */
  database?: DatabaseConfig;
  /** Where file bytes live: `dataDir/blobs` on local disk, or an S3 bucket. */
  blobs: BlobsConfig;
  logLevel: string;
  /** Largest file an upload may declare. */
  maxUploadBytes: number;
  /** Size of every part but the last. */
  uploadPartSize: number;
  uploadTtlMs: number;
  /** How often expired uploads are swept (and tenants past their grace period erased). */
  sweepIntervalMs: number;
  /** How long a tenant marked for deletion is kept when the request names no grace period. */
  tenantDeletionGraceSeconds: number;
  /** Each pass of the sweep: rows per delete statement, and the time after which no new batch starts. */
  sweep: { batchRows: number; budgetMs: number };
  /** Threads of the parser pool that diagnoses runs (see `defaultParserThreads`); at least 1 is started. */
  parserThreads: number;
  /**
   * Of those, the most at work while the process serves requests (`defaultParserThreadsServing`; at most
   * `parserThreads`). A worker process serves none and always uses them all.
   */
  parserThreadsServing: number;
  /**
   * `npm start` also executes runs and delivers webhooks (EMBEDDED_WORKER). The old way to say no,
   * PARSER_THREADS=0 (or WORKER_THREADS=0), still works and is named in `deprecated`.
   */
  embeddedWorker: boolean;
  /** One line per deprecated setting in use, logged at start-up. */
  deprecated: string[];
  /**
   * The longest a runs' parser thread waits before a page while requests keep arriving at this process
   * (src/threads/give-way.ts); 0: parsers never wait for requests.
   */
  parserYieldMs: number;
  /**
   * Limit for one diagnosis task (one page, or opening the document): its thread's CPU time on Linux, at
   * most ten times that in wall-clock time (src/pdf/pool.ts); elsewhere wall-clock time.
   */
  taskTimeoutMs: number;
  /** Memory limit of a parser thread: the cap on its PDFium heap, and its V8 heap limit. */
  taskMemoryMb: number;
  /** Parser threads that open files at upload `complete`, apart from the runs' threads. */
  probeThreads: number;
  /**
   * A pool of parser threads (the runs', the probe's) none of whose threads has had a task for this long
   * ends them; the next task starts them again. 0: they never exit.
   */
  parserThreadIdleMs: number;
  /** Unexpired pending uploads a tenant may have, and the bytes they may declare in all. */
  maxPendingUploadsPerTenant: number;
  maxPendingUploadBytesPerTenant: number;
  /** Part uploads in flight at once, per tenant and in the whole process. */
  maxConcurrentPartsPerTenant: number;
  maxConcurrentParts: number;
  /** A request waits this long for an upload another request is working on, then gets 503 `busy`. */
  uploadLockWaitMs: number;
  /**
   * How long an upload's lease lasts unless its holder renews it: a process that died working on an upload
   * blocks it this long.
   */
  uploadLeaseMs: number;
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
  /** How long an Idempotency-Key's answer is replayed to retries. */
  idempotencyKeyTtlMs: number;
  /**
   * How long a key stays claimed by a request that stopped renewing it (its process died); the request
   * executing renews it every third of this.
   */
  idempotencyLockMs: number;
  /** Each tenant's token bucket: refilled at `perSecond`, holding `burst` at most; perSecond 0 is no limit. */
  rateLimit: { perSecond: number; burst: number };
  /**
   * Each client address's bucket for answers no valid token explained (`RATE_LIMIT_ANONYMOUS_*`); an empty
   * one refuses the address's next request before its token is looked up. perSecond 0 is no limit.
   */
  anonymousRateLimit: { perSecond: number; burst: number };
  /**
   * `TRUST_PROXY`: the proxies (addresses or CIDR ranges) whose `X-Forwarded-For` names the client; from any
   * other peer the header is ignored and the peer is the client.
   */
  trustProxy: string[];
  pointsPerPage: Record<Schemas['RunTarget'], number>;
  /** `PRINT_MIN_PPI`: the placed resolution `pdf-print` asks of images when a run does not say. */
  printMinPpi: number;
  seedDemoTenant: boolean;
  /**
   * Compile every operation's request validators right after the server listens (VALIDATORS_AT_START);
   * false: each operation's are compiled at its first request. Every request is validated either way.
   */
  validatorsAtStart: boolean;
  events: EventsConfig;
  webhooks: WebhooksConfig;
}

export interface EventsConfig {
  /** Events (and delivery attempts) older than this are deleted by the sweep. */
  retentionMs: number;
  /** Open `GET /api/open/events/stream` connections a tenant may have at once, per process. */
  maxStreamsPerTenant: number;
  /** A comment sent on an idle stream this often keeps proxies from closing it. */
  heartbeatMs: number;
  /** How often streams and the dispatcher look for events no notification told of. */
  pollMs: number;
  /**
   * A client that reads slower than its events come has this much waiting for it at most; past it the stream
   * is closed (the client resumes with Last-Event-ID), rather than held in the server's memory.
   */
  maxUnreadBytes: number;
}

export interface WebhooksConfig {
  maxEndpointsPerTenant: number;
  /** A delivery without a 2xx answer within this time failed. */
  timeoutMs: number;
  /** The wait before each retry; the delivery fails for good after the last one. */
  retryScheduleMs: number[];
  /** After a rotation the old secret signs deliveries too, for this long. */
  secretOverlapMs: number;
  /** An endpoint failing this long with no success is disabled. */
  disableAfterMs: number;
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
  /** Where endpoint names are resolved (c-ares); empty: the system's servers. */
  dnsServers: string[];
  /** A dispatcher's lease on a delivery it sends; a dead dispatcher's deliveries are sent again after it. */
  leaseMs: number;
  /** Deliveries in flight at once per dispatcher process, and per endpoint across them. */
  concurrency: number;
  perEndpointConcurrency: number;
}

export interface DatabaseConfig {
  url: string;
  /** Connections each process keeps at most. */
  poolSize: number;
  /** A statement running longer is cancelled (the request answers 503). */
  statementTimeoutMs: number;
  /** Waiting longer for a connection fails the request with 503. */
  connectTimeoutMs: number;
}

export type BlobsConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      /** From AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; unset: the AWS SDK's default chain. */
      credentials?: { accessKeyId: string; secretAccessKey: string };
    };

/** S3's floor for every part of a multipart upload but the last. */
export const S3_MIN_PART_SIZE = 5 * 1024 * 1024;

/**
 * `UPLOAD_PART_SIZE` when unset. On the local disk a part is an append to a file; in an object store every
 * part is a request and an object of its own until completion, and that cost per part is what small parts
 * pay: on Swift, 8 MiB parts (two at once) reach 0.6-0.7x one PutObject's speed even without our hop, 32 MiB
 * parts 0.9x; through the API, 32 MiB parts reach 0.69-0.80x and 64 MiB parts 0.77-0.90x (bench/README,
 * scenario 10). Larger parts are faster still, but a client re-sends a whole part after a failure: 64 MiB
 * stays under the 100 MB that Backblaze B2, whose API also tells clients the part size, recommends.
 */
export const DEFAULT_PART_SIZE: Record<BlobsConfig['kind'], number> = {
  local: 8 * 1024 * 1024,
  s3: 64 * 1024 * 1024,
};

/** Every problem with the environment, one clear line each; the process prints them and exits 1. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads variables against their declared types, collecting every problem instead of stopping at one. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The variable is set (to something other than blanks). */
  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      this.problems.push(`${name} must be a whole number ${range}, got "${raw}"`);
      return fallback;
    }
    return value;
  }

  oneOf(name: string, fallback: string, allowed: string[]): string {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (!allowed.includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return fallback;
    }
    return raw;
  }

  bool(name: string, fallback: boolean): boolean {
    return this.oneOf(name, String(fallback), ['true', 'false']) === 'true';
  }

  text(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  /** A comma-separated list of IP addresses or CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`). */
  proxies(name: string): string[] {
    const raw = this.raw(name);
    if (raw === undefined) return [];
    const items = raw.split(',').map((item) => item.trim());
    const valid = (item: string) => {
      const [address = '', bits, ...rest] = item.split('/');
      const family = isIP(address);
      const maxBits = family === 6 ? 128 : 32;
      return (
        family !== 0 &&
        rest.length === 0 &&
        (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))
      );
    };
    if (items.length > 64 || !items.every(valid)) {
      this.problems.push(
        `${name} must be up to 64 comma-separated IP addresses or CIDR ranges, got "${raw}"`,
      );
      return [];
    }
    return items;
  }

  /** A comma-separated list of IP addresses, each with an optional port (`127.0.0.1:5353`, `[::1]:53`). */
  addresses(name: string): string[] {
    const raw = this.raw(name);
    if (raw === undefined) return [];
    const items = raw.split(',').map((item) => item.trim());
    const valid = (item: string) => {
      const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(item);
      const plain = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(item) ?? /^([0-9a-fA-F:]+)()$/.exec(item);
      const match = bracketed ?? plain;
      return match !== null && isIP(match[1]!) !== 0 && Number(match[2] || 53) <= 65_535;
    };
    if (items.length > 16 || !items.every(valid)) {
      this.problems.push(
        `${name} must be up to 16 comma-separated IP addresses with optional ports, got "${raw}"`,
      );
      return [];
    }
    return items;
  }

  /**
   * A comma-separated list of durations such as `5s,5m,2h` (ms, s, m, h or d; a bare number is seconds), in
   * milliseconds.
   */
  durations(name: string, fallback: string): number[] {
    const raw = this.raw(name) ?? fallback;
    const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
    const values = raw.split(',').map((item) => {
      const match = /^(\d{1,9})(ms|s|m|h|d)?$/.exec(item.trim());
      return match ? Number(match[1]) * units[match[2] ?? 's']! : Number.NaN;
    });
    if (values.length > 100 || values.some((value) => Number.isNaN(value))) {
      this.problems.push(
        `${name} must be up to 100 comma-separated durations such as 5s,5m,2h (units ms, s, m, h, d), got "${raw}"`,
      );
      return parseFallback(fallback, units);
    }
    return values;
  }
}

function parseFallback(fallback: string, units: Record<string, number>): number[] {
  return fallback.split(',').map((item) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(item)!;
    return Number(match[1]) * units[match[2]!]!;
  });
}

/** S3's limit, and the contract's bound on `part_number`. */
export const MAX_PART_COUNT = 10_000;

/**
 * Parser threads when `PARSER_THREADS` is unset: every core. One document's pages are read on all of them
 * (src/worker/execute.ts), so a quiet server diagnoses as fast as the machine allows.
 */
export function defaultParserThreads(cores = availableParallelism()): number {
  return Math.max(1, cores);
}

/**
 * Parser threads at work while a process that answers HTTP serves requests, when `PARSER_THREADS_SERVING`
 * is unset: one core is left to its event loop. On 2 cores with a parser on each, the run list's p99 under
 * diagnosis load was 1.55-1.72x its idle p99 even with the parsers at the idle scheduling policy, and
 * 1.14-1.36x with one core left (bench/README, scenario 6).
 */
export function defaultParserThreadsServing(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/** The whole configuration, checked at once: throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read = new EnvReader(env);
  const config = readConfig(read);
  const parts = Math.ceil(config.maxUploadBytes / config.uploadPartSize);
  if (parts > MAX_PART_COUNT) {
    read.problems.push(
      `MAX_UPLOAD_BYTES / UPLOAD_PART_SIZE must be at most ${MAX_PART_COUNT} parts, got ${parts}`,
    );
  }
  if (config.blobs.kind === 's3' && config.uploadPartSize < S3_MIN_PART_SIZE) {
    read.problems.push(
      `UPLOAD_PART_SIZE must be at least ${S3_MIN_PART_SIZE} (5 MiB) with BLOB_STORE=s3, got ${config.uploadPartSize}`,
    );
  }
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return config;
}

function readDatabase(env: EnvReader): DatabaseConfig | undefined {
  const url = env.text('DATABASE_URL', '');
  if (url === '') return undefined;
  let scheme = '';
  try {
    scheme = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (scheme !== 'postgres:' && scheme !== 'postgresql:') {
    env.problems.push('DATABASE_URL must be a postgres://user:password@host:port/database URL');
  }
  return {
    url,
    poolSize: env.int('DATABASE_POOL_SIZE', 10, 1),
    statementTimeoutMs: env.int('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 1),
    connectTimeoutMs: env.int('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 1),
  };
}

function readBlobs(env: EnvReader): BlobsConfig {
  if (env.oneOf('BLOB_STORE', 'local', ['local', 's3']) === 'local') return { kind: 'local' };
  const bucket = env.text('S3_BUCKET', '');
  if (bucket === '') env.problems.push('S3_BUCKET must be set when BLOB_STORE=s3');
  const endpoint = env.text('S3_ENDPOINT', '');
  if (endpoint !== '' && !/^https?:\/\/[^/]/.test(endpoint)) {
    env.problems.push(`S3_ENDPOINT must be an http:// or https:// URL, got "${endpoint}"`);
  }
  const accessKeyId = env.text('AWS_ACCESS_KEY_ID', '');
  const secretAccessKey = env.text('AWS_SECRET_ACCESS_KEY', '');
  return {
    kind: 's3',
    bucket,
    ...(endpoint ? { endpoint } : {}),
    region: env.text('S3_REGION', 'us-east-1'),
    forcePathStyle: env.bool('S3_FORCE_PATH_STYLE', endpoint !== ''),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  };
}

function readConfig(env: EnvReader): Config {
  const MiB = 1024 * 1024;
  // PARSER_THREADS was WORKER_THREADS, which also named the worker role: the old name still works
  const threadsVariable =
    !env.has('PARSER_THREADS') && env.has('WORKER_THREADS') ? 'WORKER_THREADS' : 'PARSER_THREADS';
  const parserThreads = env.int(threadsVariable, defaultParserThreads());
  const blobs = readBlobs(env);
  return {
    port: env.int('PORT', 8080, 0, 65535),
    host: env.text('HOST', '127.0.0.1'),
    dataDir: path.resolve(env.text('DATA_DIR', './data')),
    database: readDatabase(env),
    blobs,
    logLevel: env.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    metricsPort: env.int('METRICS_PORT', 9464, 0, 65535),
    adminPort: env.has('ADMIN_PORT') ? env.int('ADMIN_PORT', 0, 0, 65535) : undefined,
    adminHost: env.text('ADMIN_HOST', '127.0.0.1'),
    maxUploadBytes: env.int('MAX_UPLOAD_BYTES', 512 * MiB, 1),
    uploadPartSize: env.int('UPLOAD_PART_SIZE', DEFAULT_PART_SIZE[blobs.kind], 1, 5 * 1024 * MiB),
    uploadTtlMs: env.int('UPLOAD_TTL_SECONDS', 24 * 3600, 1) * 1000,
    sweepIntervalMs: env.int('UPLOAD_SWEEP_SECONDS', 300, 1) * 1000,
    tenantDeletionGraceSeconds: env.int('TENANT_DELETION_GRACE_SECONDS', 30 * 86_400, 0, 365 * 86_400),
    sweep: {
      batchRows: env.int('SWEEP_BATCH_ROWS', 1000, 1, 100_000),
      budgetMs: env.int('SWEEP_BUDGET_SECONDS', 60, 1, 86_400) * 1000,
    },
    parserThreads,
    parserThreadsServing: Math.min(
      Math.max(1, parserThreads),
      env.int('PARSER_THREADS_SERVING', defaultParserThreadsServing(), 1),
    ),
    embeddedWorker: env.bool('EMBEDDED_WORKER', true) && parserThreads > 0,
    deprecated: [
      ...(threadsVariable === 'WORKER_THREADS'
        ? ['WORKER_THREADS is deprecated: it is now PARSER_THREADS']
        : []),
      ...(parserThreads === 0
        ? [`${threadsVariable}=0 is deprecated: set EMBEDDED_WORKER=false to run no worker inside npm start`]
        : []),
    ],
    parserYieldMs: env.int('PARSER_YIELD_MS', 5, 0, 1000),
    taskTimeoutMs: env.int('TASK_TIMEOUT_MS', 10_000, 1),
    taskMemoryMb: env.int('TASK_MEMORY_MB', 512, 64),
    probeThreads: env.int('PROBE_THREADS', 1, 1),
    parserThreadIdleMs: env.int('PARSER_THREAD_IDLE_MS', 30_000, 0),
    maxPages: env.int('MAX_PAGES', 10_000, 1),
    leftoverMinAgeMs: env.int('LEFTOVER_MIN_AGE_SECONDS', 3600) * 1000,
    maxPendingUploadsPerTenant: env.int('MAX_PENDING_UPLOADS_PER_TENANT', 100, 1),
    maxPendingUploadBytesPerTenant: env.int('MAX_PENDING_UPLOAD_BYTES_PER_TENANT', 20 * 1024 * MiB, 1),
    maxConcurrentPartsPerTenant: env.int('MAX_CONCURRENT_PARTS_PER_TENANT', 8, 1),
    maxConcurrentParts: env.int('MAX_CONCURRENT_PARTS', 64, 1),
    bodyIdleTimeoutMs: env.int('BODY_IDLE_TIMEOUT_MS', 30_000, 1),
    uploadLockWaitMs: env.int('UPLOAD_LOCK_WAIT_MS', 60_000, 1),
    uploadLeaseMs: env.int('UPLOAD_LEASE_MS', 5_000, 100),
    headersTimeoutMs: env.int('HTTP_HEADERS_TIMEOUT_MS', 20_000, 1),
    requestTimeoutMs: env.int('HTTP_REQUEST_TIMEOUT_MS', 300_000, 1),
    runTimeoutMs: env.int('RUN_TIMEOUT_MS', 600_000, 1),
    maxQueuedRunsPerTenant: env.int('MAX_QUEUED_RUNS_PER_TENANT', 1000, 1),
    reportThumbnails: env.int('REPORT_THUMBNAILS', 12),
    reportHtmlPages: env.int('REPORT_HTML_PAGES', 500, 1),
    leaseMs: env.int('RUN_LEASE_MS', 30_000, 100),
    idempotencyKeyTtlMs: env.int('IDEMPOTENCY_KEY_TTL_SECONDS', 86_400, 1, 30 * 86_400) * 1000,
    idempotencyLockMs: env.int('IDEMPOTENCY_LOCK_SECONDS', 10, 1, 3600) * 1000,
    rateLimit: {
      perSecond: env.int('RATE_LIMIT_PER_SECOND', 100, 0, 1_000_000),
      burst: env.int('RATE_LIMIT_BURST', 200, 1, 1_000_000),
    },
    anonymousRateLimit: {
      perSecond: env.int('RATE_LIMIT_ANONYMOUS_PER_SECOND', 10, 0, 1_000_000),
      burst: env.int('RATE_LIMIT_ANONYMOUS_BURST', 50, 1, 1_000_000),
    },
    trustProxy: env.proxies('TRUST_PROXY'),
    pointsPerPage: {
      'pdf-preflight': env.int('POINTS_PER_PAGE_PREFLIGHT', 2),
      'pdf-text': env.int('POINTS_PER_PAGE_TEXT', 1),
      'pdf-print': env.int('POINTS_PER_PAGE_PRINT', 2),
      'pdf-archive': env.int('POINTS_PER_PAGE_ARCHIVE', 2),
      'pdf-accessibility': env.int('POINTS_PER_PAGE_ACCESSIBILITY', 2),
    },
    printMinPpi: env.int('PRINT_MIN_PPI', 300, 1, 4800),
    seedDemoTenant: env.bool('SEED_DEMO_TENANT', true),
    validatorsAtStart: env.bool('VALIDATORS_AT_START', true),
    events: {
      retentionMs: env.int('EVENT_RETENTION_DAYS', 30, 1, 3650) * 86_400_000,
      maxStreamsPerTenant: env.int('MAX_STREAMS_PER_TENANT', 8, 1, 10_000),
      heartbeatMs: env.int('EVENT_STREAM_HEARTBEAT_MS', 15_000, 10, 3_600_000),
      pollMs: env.int('EVENT_POLL_MS', 250, 10, 60_000),
      maxUnreadBytes: env.int('MAX_STREAM_UNREAD_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    },
    webhooks: {
      maxEndpointsPerTenant: env.int('MAX_WEBHOOK_ENDPOINTS_PER_TENANT', 16, 1, 1000),
      timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 10_000, 1, 600_000),
      retryScheduleMs: env.durations('WEBHOOK_RETRY_SCHEDULE', '5s,5m,30m,2h,5h,10h,10h'),
      secretOverlapMs: env.int('WEBHOOK_SECRET_OVERLAP_SECONDS', 86_400, 0, 30 * 86_400) * 1000,
      disableAfterMs: env.int('WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 86_400, 1) * 1000,
      allowHttp: env.bool('WEBHOOK_ALLOW_HTTP', false),
      allowPrivateNetworks: env.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      dnsServers: env.addresses('WEBHOOK_DNS_SERVERS'),
      leaseMs: env.int('WEBHOOK_LEASE_MS', 30_000, 100),
      concurrency: env.int('WEBHOOK_CONCURRENCY', 32, 1, 10_000),
      perEndpointConcurrency: env.int('WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 1000),
    },
  };
}
