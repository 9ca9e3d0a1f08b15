import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { QUIET_MS, requestArrivals, SERVING_WINDOW_MS, ServingWatch } from '../threads/give-way.js';
import { linuxThreadId, threadCpuMs } from '../threads/thread-cpu.js';
import { pdfiumModule } from './pdfium.js';
import { ThreadCacheMirror } from './thread-cache.js';
import type {
  ForgetRequest,
  PdfTask,
  PdfTaskResult,
  TaskFailureKind,
  TaskRequest,
  TaskResponse,
} from './tasks.js';

/**
 * How far a parser thread's JS heap may grow before its first full collection. V8 starts a new isolate's
 * old generation at a few MB, and the parsed objects of the documents being read (kept for the whole run,
 * so V8 allocates them straight into the old generation) filled that about every 150 ms while the pool was
 * busy. Each full collection marks on V8's helper threads, which run at the event loop's priority, not the
 * parser thread's lowered one: where the API and the parsers share a core, the run list's p99 rose to
 * 2.6-3.0x its idle p99. An eighth of the thread's memory (64 MB at the default TASK_MEMORY_MB) made those
 * collections about seven times rarer and the p99 1.9-2.2x idle, for ~20 MB more RSS per busy thread
 * (bench/README.md, scenario 6). V8 reads the flag when an isolate is created, so it shapes each new parser
 * thread and nothing that already runs (the API's own heap keeps V8's defaults).
 */
const firstFullCollectionMb = (memoryMb: number) => Math.max(8, Math.floor(memoryMb / 8));

/**
 * A parser thread's young generation (`resourceLimits`), and the semi-spaces that give it. The process's
 * own `--max-semi-space-size` (SERVER_NODE_OPTIONS, 8: the API's memory during uploads) caps every isolate
 * created after it, `resourceLimits` or not (8 gave a parser 16 MB of new space), and the parsers'
 * collections are a large share of a long run's CPU (bench/README.md, scenario 14): the flag is set back to
 * the parsers' own size before each thread starts, as `--initial-old-space-size` is. Isolates started after
 * one (the run thread) get it too, as they did before the API's went to 8.
 */
const PARSER_YOUNG_GENERATION_MB = 32;
const PARSER_SEMI_SPACE_MB = PARSER_YOUNG_GENERATION_MB / 2;

export class TaskFailure extends Error {
  constructor(
    readonly kind: TaskFailureKind,
    message: string,
    /** Of a `pages` task its thread did not survive: the page it was reading then. */
    readonly page?: number,
  ) {
    super(message);
  }
}

export interface PoolOptions {
  /** Threads the pool parses on at most. */
  size: number;
  /**
   * While the process serves requests (`ServingWatch`: they arrive at SERVING_REQUESTS_PER_S or faster), at
   * most `threads` of them take a task; quiet, all `size` do. A thread at work when requests begin ends its
   * task (a few pages) first, and gives way before each page meanwhile (`givesWayMs`).
   */
  serving?: { threads: number; arrivals: Int32Array };
  /** A task's time limit: its thread's CPU time where Linux tells it (see `startClock`). */
  taskTimeoutMs: number;
  /**
   * Memory of each thread: the cap on its PDFium (wasm) heap, where documents are parsed, and its V8 heap
   * limit. Past the wasm cap PDFium aborts and only the task at hand fails.
   */
  memoryMb: number;
  /**
   * A task is stopped this long after it started whatever CPU time its thread ran (see `startClock`):
   * WALL_CLOCK_FACTOR times `taskTimeoutMs` unless given.
   */
  wallClockLimitMs?: number;
  /** A thread whose wasm heap has grown past this is replaced after its task (wasm memory never shrinks). */
  recycleMb?: number;
  /**
   * A thread whose wasm heap has grown past this is replaced as soon as no task is waiting: a large
   * document's memory leaves the process when the work ends, not at the next recycle.
   */
  idleRecycleMb?: number;
  /**
   * The longest a thread waits before a page while the process's requests keep arriving (src/threads/give-way.ts);
   * 0: it never waits. Within a task it waits at most a quarter of `taskTimeoutMs`.
   */
  givesWayMs?: number;
  /** The quiet moment a thread that gives way waits for (QUIET_MS; tests take longer ones). */
  givesWayQuietMs?: number;
  /**
   * The module (a URL) whose `RULE_JUDGES` each thread hands its readers, to judge a file's objects and pages
   * by published rules; without it, documents are read without rules (a probe needs none).
   */
  judges?: string;
  /**
   * Once no thread has had a task for this long, the threads exit, and the next task starts them again
   * (`exitWhenIdle`); 0 or unset: they live as long as the pool.
   */
  idleExitMs?: number;
  /** Told of every task that ends: its kind, `ok` or the failure kind, its seconds and its thread's id. */
  onTaskEnd?: (kind: string, outcome: string, seconds: number, threadId: number) => void;
  /** Told the PDFium heap of a thread after each of its tasks. */
  onHeap?: (bytes: number) => void;
  /** Told the seconds a task waited for requests (`givesWayMs`), when it waited. */
  onGaveWay?: (seconds: number) => void;
}

interface Pending {
  request: TaskRequest;
  queuedAt: number;
  startedAt?: number;
  /** Times a newer task of another file's run went first; bounded so file affinity cannot starve a run. */
  passedOver: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /**
   * [0]: the page the thread is reading (it writes it before each page): where a task it did not survive
   * was. [1]: its Linux thread id (it writes it at start; 0 until then, and elsewhere), for its CPU time.
   */
  reading: Int32Array;
  /** The thread's CPU milliseconds when its current task started (0: since the thread started). */
  cpuAtStart?: number;
  current?: Pending;
  lastPath?: string;
  /** The documents and pages this thread keeps loaded between tasks, as far as the pool can tell. */
  cache: ThreadCacheMirror;
  timer?: NodeJS.Timeout;
}

/** The page a task reads (of a `pages` task, the last: the one its thread keeps loaded), for the tasks that read one. */
const pageOf = (task: PdfTask) =>
  task.kind === 'pages' ? task.page + task.count - 1 : 'page' in task ? task.page : undefined;

/** Within a lane: a task of a page this thread has loaded, else one of the file it has open, else -1. */
function preferredTask(queue: Pending[], slot: Slot): number {
  const samePage = queue.findIndex((pending) => {
    const page = pageOf(pending.request.task);
    return page !== undefined && slot.cache.hasPage(pending.request.task.path, page);
  });
  return samePage !== -1
    ? samePage
    : queue.findIndex((pending) => pending.request.task.path === slot.lastPath);
}

/** How often the oldest waiting task of a lane may be passed over for a task of a thread's open file. */
export const MAX_PASSED_OVER = 4;

/**
 * How long a task whose page another thread has loaded waits for that thread before any free thread takes
 * it: about what loading a heavy page again costs (a 1.4 MB content stream parses in ~25 ms).
 */
export const AFFINITY_WAIT_MS = 25;

/** How many times its time limit a task may take in wall-clock time while its thread waits for a core. */
export const WALL_CLOCK_FACTOR = 10;

/** Whether threads' CPU time can be read here (Linux): each parser thread then tells its id at start. */
const CPU_CLOCK = linuxThreadId() !== undefined;

/** Under tsx (tests, the CLI) the thread runs from its .ts source; from dist it is plain JS. */
function threadEntry(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './thread-from-source.mjs' : './thread.js', import.meta.url);
}

/**
 * A fixed pool of parser threads. PDF parsing never runs on the caller's event loop; a task that runs past
 * its time limit or its heap limits has its thread terminated and replaced, and fails alone.
 */
export class PdfPool {
  private readonly slots: Slot[] = [];
  /** Waiting tasks per lane (a tenant); lanes take turns, so one tenant's many tasks never starve another's. */
  private readonly lanes = new Map<string, Pending[]>();
  private nextId = 1;
  private closed = false;
  /** Threads replaced and still ending: `close` waits for them too, so no parser outlives the pool. */
  private readonly ending = new Set<Promise<number>>();
  private affinityTimer?: NodeJS.Timeout;
  private readonly servingWatch?: ServingWatch;
  /** Set while tasks wait for the requests to quiet down: the pool looks again when the window ends. */
  private servingTimer?: NodeJS.Timeout;
  /** Set while no thread has a task and none waits: the threads exit when it fires (`exitWhenIdle`). */
  private idleTimer?: NodeJS.Timeout;

  /**
   * Threads start with the first task, not with the pool: a process that never parses (an API process
   * whose tenants only read, a worker with an empty queue, most test servers) loads no parser (PDFium, its
   * modules: about half a second of CPU per thread).
   */
  constructor(private readonly options: PoolOptions) {
    if (options.serving) this.servingWatch = new ServingWatch(options.serving.arrivals);
  }

  private startThreads(): void {
    if (this.slots.length > 0 || this.closed) return;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  private get idleRecycleBytes(): number {
    return (this.options.idleRecycleMb ?? 32) * 1024 * 1024;
  }

  private nothingWaiting(): boolean {
    return this.lanes.size === 0;
  }

  /** Threads started and not ended: 0 before the first task, and after the threads exited idle. */
  get threads(): number {
    return this.slots.length;
  }

  /** How many threads parse at once at most (once started). */
  get size(): number {
    return Math.max(1, this.options.size);
  }

  /** How many threads may be at work now: fewer while the process serves requests. */
  private threadsAtWork(now: number): number {
    const serving = this.options.serving;
    if (!serving || !this.servingWatch!.isServing(now)) return this.size;
    return Math.max(1, Math.min(this.size, serving.threads));
  }

  run<K extends PdfTask['kind']>(task: Extract<PdfTask, { kind: K }>, lane = ''): Promise<PdfTaskResult[K]> {
    if (this.closed) return Promise.reject(new TaskFailure('crashed', 'the parser pool is closed'));
    this.keepThreads();
    this.startThreads();
    return new Promise((resolve, reject) => {
      let queue = this.lanes.get(lane);
      if (!queue) {
        queue = [];
        this.lanes.set(lane, queue);
      }
      queue.push({
        request: { id: this.nextId++, task },
        queuedAt: performance.now(),
        passedOver: 0,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /**
   * The work on a file is over: every thread closes its copy of the document once its current task ends.
   * Threads keep documents open between tasks, and without this a run's pages and file descriptor would
   * outlive it (an object store's scratch copy is deleted after the run, its disk space held until closed).
   */
  forget(path: string): void {
    const request: ForgetRequest = { forget: path };
    for (const slot of this.slots) {
      if (slot.lastPath === path) slot.lastPath = undefined;
      slot.cache.forget(path);
      slot.worker.postMessage(request);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.affinityTimer);
    clearTimeout(this.servingTimer);
    this.keepThreads();
    for (const queue of this.lanes.values())
      for (const pending of queue.splice(0))
        pending.reject(new TaskFailure('crashed', 'the parser pool closed'));
    this.lanes.clear();
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        clearTimeout(slot.timer);
        slot.current?.reject(new TaskFailure('crashed', 'the parser pool closed'));
        slot.current = undefined;
        await slot.worker.terminate();
      }),
    );
    await Promise.allSettled([...this.ending]);
  }

  private spawn(): Slot {
    const reading = new Int32Array(new SharedArrayBuffer(8));
    setFlagsFromString(`--initial-old-space-size=${firstFullCollectionMb(this.options.memoryMb)}`);
    setFlagsFromString(`--max-semi-space-size=${PARSER_SEMI_SPACE_MB}`);
    const worker = new Worker(threadEntry(), {
      execArgv: [],
      workerData: {
        reading,
        requestArrivals: requestArrivals(),
        givesWayMs: this.options.givesWayMs ?? 0,
        givesWayPerTaskMs: this.options.taskTimeoutMs / 4,
        givesWayQuietMs: this.options.givesWayQuietMs ?? QUIET_MS,
        pdfium: pdfiumModule(),
        judgesModule: this.options.judges,
        heapLimitBytes: this.options.memoryMb * 1024 * 1024,
        recycleHeapBytes: (this.options.recycleMb ?? Math.min(128, this.options.memoryMb / 2)) * 1024 * 1024,
      },
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb,
        maxYoungGenerationSizeMb: PARSER_YOUNG_GENERATION_MB,
      },
    });
    const slot: Slot = { worker, reading, cache: new ThreadCacheMirror() };
    worker.on('message', (response: TaskResponse) => this.settle(slot, response));
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.replace(
        slot,
        new TaskFailure(
          outOfMemory ? 'out_of_memory' : 'crashed',
          outOfMemory ? 'The parser ran out of memory' : `The parser crashed: ${error.message}`,
        ),
      );
    });
    worker.on('exit', () => {
      if (!this.closed && this.slots.includes(slot))
        this.replace(slot, new TaskFailure('crashed', 'The parser exited'));
    });
    worker.unref();
    return slot;
  }

  private settle(slot: Slot, response: TaskResponse): void {
    const pending = slot.current;
    if (!pending || pending.request.id !== response.id) return;
    clearTimeout(slot.timer);
    slot.current = undefined;
    this.options.onHeap?.(response.heapBytes);
    if (response.gaveWayMs > 0) this.options.onGaveWay?.(response.gaveWayMs / 1000);
    this.report(slot, pending, response.ok ? 'ok' : response.kind);
    const page = pageOf(pending.request.task);
    if (!response.ok && page !== undefined) slot.cache.drop(pending.request.task.path, page);
    if (response.ok) pending.resolve(response.result);
    else pending.reject(new TaskFailure(response.kind, response.message));
    // an engine that aborted or grew large is dropped, its memory with it
    if (response.recycle || (response.heapBytes > this.idleRecycleBytes && this.nothingWaiting())) {
      this.replace(slot);
    } else this.pump();
    this.exitWhenIdle();
  }

  /**
   * A pool whose threads have all been free for `idleExitMs` ends them: a thread holds its isolate and its
   * PDFium heap for as long as it lives, and the probe pool's one thread was started by the first upload
   * `complete` and never used again for hours (bench/README.md, scenario 10). Armed when the last task
   * ends; a task that comes first disarms it (`keepThreads`), and the next task after the exit starts fresh
   * threads (`startThreads`), at the cost of a thread's start (instantiating PDFium) before that task.
   */
  private exitWhenIdle(): void {
    const idleMs = this.options.idleExitMs ?? 0;
    if (idleMs <= 0 || this.closed || this.idleTimer || this.slots.length === 0 || !this.allIdle()) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.closed || !this.allIdle()) return;
      for (const slot of this.slots.splice(0)) this.end(slot);
    }, idleMs);
    this.idleTimer.unref();
  }

  private keepThreads(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private allIdle(): boolean {
    return this.nothingWaiting() && this.slots.every((slot) => !slot.current);
  }

  /** Terminates a thread the pool no longer lists; `close` still waits for it to end. */
  private end(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    const ended = slot.worker.terminate();
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
  }

  /** Fails the slot's task (if any), swaps in a fresh thread, and carries on with the queue. */
  private replace(slot: Slot, failure?: TaskFailure): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    clearTimeout(slot.timer);
    const pending = slot.current;
    slot.current = undefined;
    this.slots.splice(index, 1);
    slot.worker.removeAllListeners();
    slot.worker.on('error', () => undefined);
    const ended = slot.worker.terminate();
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
    if (!this.closed) this.slots.push(this.spawn());
    if (pending && failure) {
      this.report(slot, pending, failure.kind);
      const { task } = pending.request;
      pending.reject(
        task.kind === 'pages'
          ? new TaskFailure(failure.kind, failure.message, Atomics.load(slot.reading, 0) || undefined)
          : failure,
      );
    }
    this.pump();
    this.exitWhenIdle();
  }

  private report(slot: Slot, pending: Pending, outcome: string): void {
    if (pending.startedAt === undefined) return;
    this.options.onTaskEnd?.(
      pending.request.task.kind,
      outcome,
      (performance.now() - pending.startedAt) / 1000,
      slot.worker.threadId,
    );
  }

  /**
   * The next task for a free thread: from the first lane (in turn order) that has one this thread may take;
   * that lane moves to the back of the order. A thread keeps its last documents open and its last pages
   * loaded, so within the lane a task of a page this thread has loaded goes first, then one of the same file,
   * unless the lane's oldest task has already been passed over MAX_PASSED_OVER times: a long run on one file
   * keeps refilling the lane and would otherwise hold a short run of the same tenant back until its deadline.
   * A task whose page another thread has loaded is left to that thread for AFFINITY_WAIT_MS (a run's pictures
   * come after its facts, and loading the page again can cost more than drawing it).
   */
  private takeNext(slot: Slot, now: number): Pending | undefined {
    for (const [lane, queue] of this.lanes) {
      const oldest = queue[0]!;
      const mine = (pending: Pending) => !this.heldElsewhere(pending, slot, now);
      let chosen: number;
      if (oldest.passedOver >= MAX_PASSED_OVER && mine(oldest)) chosen = 0;
      else {
        const preferred = preferredTask(queue, slot);
        chosen = preferred !== -1 && mine(queue[preferred]!) ? preferred : queue.findIndex(mine);
      }
      if (chosen === -1) continue;
      if (chosen > 0) oldest.passedOver++;
      const [task] = queue.splice(chosen, 1) as [Pending];
      this.lanes.delete(lane);
      if (queue.length > 0) this.lanes.set(lane, queue);
      return task;
    }
    return undefined;
  }

  /** Another live thread has the task's page loaded, and the task has not waited for it long. */
  private heldElsewhere(pending: Pending, slot: Slot, now: number): boolean {
    const { task } = pending.request;
    const page = pageOf(task);
    if (page === undefined || slot.cache.hasPage(task.path, page)) return false;
    if (now - pending.queuedAt >= AFFINITY_WAIT_MS) return false;
    return this.slots.some((other) => other !== slot && other.cache.hasPage(task.path, page));
  }

  /**
   * A task's time limit counts its thread's CPU time where Linux tells it. A parser at the idle policy gets
   * no CPU while other work keeps every core busy, and a wall-clock limit then failed its pages as too
   * complex (a run's `pdf_too_complex`) for having waited. The task is stopped once its thread has run
   * `taskTimeoutMs`, or `wallClockLimitMs` after it started whatever it ran (a thread blocked on something
   * that never comes). A thread still starting (it has not told its id) has run nothing of the task yet.
   * Elsewhere than Linux the limit is wall-clock time.
   */
  private startClock(slot: Slot, pending: Pending): void {
    const threadId = Atomics.load(slot.reading, 1);
    slot.cpuAtStart = threadId > 0 ? threadCpuMs(threadId) : 0;
    this.checkClockIn(slot, pending, this.options.taskTimeoutMs);
  }

  private checkClockIn(slot: Slot, pending: Pending, delayMs: number): void {
    slot.timer = setTimeout(() => {
      if (slot.current !== pending) return;
      const limitMs = this.options.taskTimeoutMs;
      const threadId = Atomics.load(slot.reading, 1);
      let ranMs: number | undefined;
      if (threadId === 0) ranMs = CPU_CLOCK ? 0 : undefined;
      else {
        const cpuNow = threadCpuMs(threadId);
        if (cpuNow !== undefined && slot.cpuAtStart !== undefined) ranMs = cpuNow - slot.cpuAtStart;
      }
      const wallLimitMs = this.options.wallClockLimitMs ?? limitMs * WALL_CLOCK_FACTOR;
      const wallLeftMs = wallLimitMs - (performance.now() - (pending.startedAt ?? 0));
      if (ranMs !== undefined && ranMs < limitMs && wallLeftMs > 0) {
        this.checkClockIn(slot, pending, Math.max(1, Math.min(limitMs - ranMs, wallLeftMs)));
        return;
      }
      this.replace(slot, new TaskFailure('timeout', `The parser took longer than ${limitMs} ms`));
    }, delayMs);
  }

  /** Tasks wait while requests keep a thread back: the pool looks again once the rate is read anew. */
  private lookAgainWhenQuiet(): void {
    if (this.servingTimer || this.closed) return;
    this.servingTimer = setTimeout(() => {
      this.servingTimer = undefined;
      this.pump();
    }, SERVING_WINDOW_MS);
    this.servingTimer.unref();
  }

  private pump(): void {
    const now = performance.now();
    let leftWaiting = false;
    const atWork = this.threadsAtWork(now);
    let working = this.slots.filter((slot) => slot.current).length;
    for (const slot of this.slots) {
      if (slot.current) continue;
      if (this.nothingWaiting()) return;
      if (working >= atWork) {
        if (atWork < this.size) this.lookAgainWhenQuiet();
        return;
      }
      const next = this.takeNext(slot, now);
      if (!next) {
        leftWaiting = true;
        continue;
      }
      slot.current = next;
      working++;
      next.startedAt = now;
      slot.lastPath = next.request.task.path;
      slot.cache.read(next.request.task.path, pageOf(next.request.task));
      this.startClock(slot, next);
      slot.worker.postMessage(next.request);
    }
    // a free thread left tasks to the threads that have their pages: it takes them if those stay busy
    if (leftWaiting && !this.affinityTimer && !this.closed) {
      this.affinityTimer = setTimeout(() => {
        this.affinityTimer = undefined;
        this.pump();
      }, AFFINITY_WAIT_MS);
      this.affinityTimer.unref();
    }
  }
}

/** What parser threads report to the process's metrics. */
export interface ParserReports {
  parserTask(kind: string, outcome: string, seconds: number): void;
  parserHeap(bytes: number): void;
  parserGaveWay(seconds: number): void;
}

/** Parser threads with the configured limits, reporting each task and heap to `reports`. */
export function parserPool(
  limits: { taskTimeoutMs: number; taskMemoryMb: number; parserThreadIdleMs: number },
  reports: ParserReports,
  threads: Pick<PoolOptions, 'size' | 'givesWayMs' | 'judges' | 'serving'>,
): PdfPool {
  return new PdfPool({
    ...threads,
    taskTimeoutMs: limits.taskTimeoutMs,
    memoryMb: limits.taskMemoryMb,
    idleExitMs: limits.parserThreadIdleMs,
    onTaskEnd: (kind, outcome, seconds) => reports.parserTask(kind, outcome, seconds),
    onHeap: (bytes) => reports.parserHeap(bytes),
    onGaveWay: (seconds) => reports.parserGaveWay(seconds),
  });
}
