import type { Logger } from '../kernel/logger.js';

/** Work a process does beside answering requests, started and stopped with its runtime. */
export interface Job {
  readonly name: string;
  /** Which one it is among the processes sharing the database (the run worker's lease holder id). */
  readonly id?: string | undefined;
  start(): void;
  /** Resolves once the job's current work is done or handed back. */
  stop(): Promise<void>;
}

/** A job that runs `work` every `everyMs` (and at once when `atStart`), logging its failures. */
export function intervalJob(
  name: string,
  everyMs: number,
  work: () => Promise<void>,
  logger: Logger,
  atStart = false,
): Job {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    work().catch((error: unknown) => logger.warn({ err: error, job: name }, `${name} failed`));
  return {
    name,
    start() {
      if (atStart) void run();
      timer = setInterval(run, everyMs);
      // housekeeping never keeps a process alive
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
    },
  };
}
