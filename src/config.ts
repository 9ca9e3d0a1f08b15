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
  /** Memory limit of a parser thread (V8 heap plus decoded buffers). */
  taskMemoryMb: number;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
    taskMemoryMb: intFromEnv(env, 'TASK_MEMORY_MB', 512, 32),
    leaseMs: intFromEnv(env, 'RUN_LEASE_MS', 30_000, 100),
    pointsPerPage: {
      'pdf-preflight': intFromEnv(env, 'POINTS_PER_PAGE_PREFLIGHT', 2),
      'pdf-text': intFromEnv(env, 'POINTS_PER_PAGE_TEXT', 1),
    },
    seedDemoTenant: env.SEED_DEMO_TENANT !== 'false',
  };
}
