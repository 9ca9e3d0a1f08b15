import { Worker } from 'node:worker_threads';
import type { PdfTask, PdfTaskResult, TaskFailureKind, TaskRequest, TaskResponse } from './tasks.js';

export class TaskFailure extends Error {
  constructor(
    readonly kind: TaskFailureKind,
    message: string,
  ) {
    super(message);
  }
}

export interface PoolOptions {
  size: number;
  taskTimeoutMs: number;
  /** V8 heap limit of each thread. */
  memoryMb: number;
  /**
   * Process RSS above which the longest-running task is stopped. Decoded streams live in ArrayBuffers,
   * outside the V8 heap limit, so a decompression bomb is caught by this watchdog, not by memoryMb.
   */
  rssLimitMb: number;
}

const WATCHDOG_MS = 200;
const RSS_GROWTH_BYTES = 8 * 1024 * 1024;
/** A terminated thread's memory is released with a delay; do not stop another one meanwhile. */
const WATCHDOG_COOLDOWN_MS = 1_000;

interface Pending {
  request: TaskRequest;
  /** Set once the watchdog stopped this task; a second stop fails it. */
  stoppedByWatchdog?: boolean;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  current?: Pending;
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

/** Under tsx (tests, the CLI) the thread runs from its .ts source; from dist it is plain JS. */
function threadEntry(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './thread-from-source.mjs' : './thread.js', import.meta.url);
}

/**
 * A fixed pool of parser threads. PDF parsing never runs on the caller's event loop; a task that runs past
 * its time limit or its heap limit has its thread terminated and replaced, and fails alone.
 */
export class PdfPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly watchdog: NodeJS.Timeout;
  private watchdogQuietUntil = 0;
  private lastRss = 0;

  constructor(private readonly options: PoolOptions) {
    for (let i = 0; i < Math.max(1, options.size); i++) this.slots.push(this.spawn());
    this.watchdog = setInterval(() => this.checkMemory(), WATCHDOG_MS);
    this.watchdog.unref();
  }

  private checkMemory(): void {
    const rss = process.memoryUsage.rss();
    const growing = rss - this.lastRss > RSS_GROWTH_BYTES;
    this.lastRss = rss;
    if (performance.now() < this.watchdogQuietUntil) return;
    // RSS rarely shrinks after a thread is stopped (the allocator keeps the pages), so only a process
    // that is over the limit and still growing has a task to stop
    if (rss <= this.options.rssLimitMb * 1024 * 1024 || !growing) return;
    this.watchdogQuietUntil = performance.now() + WATCHDOG_COOLDOWN_MS;
    const busiest = this.slots
      .filter((slot) => slot.current)
      .sort((a, b) => (a.startedAt ?? 0) - (b.startedAt ?? 0))[0];
    if (!busiest?.current) return;
    // The thread that has been busy longest is not always the one growing: the first time a task is
    // stopped it goes back to the head of the queue, the second time it fails.
    const pending = busiest.current;
    if (!pending.stoppedByWatchdog) {
      pending.stoppedByWatchdog = true;
      busiest.current = undefined;
      this.queue.unshift(pending);
    }
    this.replace(busiest, new TaskFailure('out_of_memory', 'The parser used too much memory'));
  }

  get size(): number {
    return this.slots.length;
  }

  run<K extends PdfTask['kind']>(task: Extract<PdfTask, { kind: K }>): Promise<PdfTaskResult[K]> {
    if (this.closed) return Promise.reject(new TaskFailure('crashed', 'the parser pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, task }, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    for (const pending of this.queue.splice(0)) pending.reject(new TaskFailure('crashed', 'the parser pool closed'));
    await Promise.all(
      this.slots.map(async (slot) => {
        clearTimeout(slot.timer);
        slot.current?.reject(new TaskFailure('crashed', 'the parser pool closed'));
        slot.current = undefined;
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(threadEntry(), {
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb, maxYoungGenerationSizeMb: 32 },
    });
    const slot: Slot = { worker };
    worker.on('message', (response: TaskResponse) => this.settle(slot, response));
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.replace(slot, new TaskFailure(outOfMemory ? 'out_of_memory' : 'crashed', outOfMemory ? 'The parser ran out of memory' : `The parser crashed: ${error.message}`));
    });
    worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new TaskFailure('crashed', 'The parser exited'));
    });
    worker.unref();
    return slot;
  }

  private settle(slot: Slot, response: TaskResponse): void {
    const pending = slot.current;
    if (!pending || pending.request.id !== response.id) return;
    clearTimeout(slot.timer);
    slot.current = undefined;
    if (response.ok) pending.resolve(response.result);
    else pending.reject(new TaskFailure(response.kind, response.message));
    this.pump();
  }

  /** Fails the slot's task, swaps in a fresh thread, and carries on with the queue. */
  private replace(slot: Slot, failure: TaskFailure): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = undefined;
    this.slots.splice(index, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.spawn());
    pending?.reject(failure);
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.queue.shift();
      if (!next) return;
      slot.current = next;
      slot.startedAt = performance.now();
      slot.timer = setTimeout(
        () => this.replace(slot, new TaskFailure('timeout', `The parser took longer than ${this.options.taskTimeoutMs} ms`)),
        this.options.taskTimeoutMs,
      );
      slot.worker.postMessage(next.request);
    }
  }
}
