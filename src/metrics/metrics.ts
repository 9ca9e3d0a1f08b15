import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RunStatus, Store } from '../store/types.js';

/** What the live streams of a process report. */
export interface StreamStats {
  open: number;
  unreadBytes: number;
  maxUnreadBytes: number;
  readerAgeSeconds: number;
}
import type { Clock } from '../kernel/time.js';

const RUN_STATUSES: RunStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/**
 * What an operator scrapes: request durations by operation and status, runs by status, the queue's depth
 * and the age of its oldest entry, parser tasks by kind and outcome, upload bytes, and Node's process
 * metrics. One registry per server, so that tests may run several in one process.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'operation' | 'status'>;
  private readonly parserTasks: Histogram<'kind' | 'outcome'>;
  private readonly uploadBytes: Counter;
  private readonly parserHeapPeak: Gauge;
  private readonly parserGaveWaySeconds: Counter;
  private readonly webhookAttempts: Histogram<'outcome'>;
  private streamStats: () => StreamStats = () => ({
    open: 0,
    unreadBytes: 0,
    maxUnreadBytes: 0,
    readerAgeSeconds: 0,
  });

  constructor(store: Store, clock: Clock) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Histogram({
      name: 'ota_http_request_duration_seconds',
      help: 'Time to answer a request, by operationId (or path for routes outside the contract) and status',
      labelNames: ['operation', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.parserTasks = new Histogram({
      name: 'ota_parser_task_duration_seconds',
      help: 'Time of one parser task, by kind (probe, document, page, text, thumbnail) and outcome (ok or the failure kind)',
      labelNames: ['kind', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30],
      registers: [this.registry],
    });
    this.uploadBytes = new Counter({
      name: 'ota_upload_bytes_total',
      help: 'Bytes of upload parts stored',
      registers: [this.registry],
    });
    this.parserHeapPeak = new Gauge({
      name: 'ota_parser_heap_peak_bytes',
      help: 'Largest PDFium (wasm) heap any parser thread has reached since the process started',
      registers: [this.registry],
    });
    this.parserGaveWaySeconds = new Counter({
      name: 'ota_parser_gave_way_seconds_total',
      help: "Time the runs' parser threads waited before pages, pictures and text while requests kept arriving (PARSER_YIELD_MS); parser task durations include it",
      registers: [this.registry],
    });
    const runs = new Gauge({
      name: 'ota_runs',
      help: 'Runs by status, all tenants',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const stats = await store.runs.queueStats(clock.now().toISOString());
        for (const status of RUN_STATUSES) this.set({ status }, stats.byStatus[status] ?? 0);
      },
    });
    void runs;
    new Gauge({
      name: 'ota_run_queue_depth',
      help: 'Queue entries waiting for a worker (not under lease)',
      registers: [this.registry],
      async collect() {
        this.set((await store.runs.queueStats(clock.now().toISOString())).waiting);
      },
    });
    new Gauge({
      name: 'ota_run_queue_oldest_age_seconds',
      help: 'Age of the oldest queue entry waiting for a worker; 0 when none waits',
      registers: [this.registry],
      async collect() {
        const oldest = (await store.runs.queueStats(clock.now().toISOString())).oldestWaitingAt;
        this.set(oldest ? Math.max(0, (clock.now().getTime() - Date.parse(oldest)) / 1000) : 0);
      },
    });
    this.webhookAttempts = new Histogram({
      name: 'ota_webhook_attempt_duration_seconds',
      help: 'Webhook delivery attempts made by this process, by outcome (succeeded, retry, failed), and their time',
      labelNames: ['outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    // three gauges, one query per scrape: the gauges of one scrape share the answer of its first
    let scraped: { at: number; answer: ReturnType<Store['webhooks']['backlog']> } | undefined;
    const backlog = () => {
      const now = clock.now().getTime();
      if (!scraped || now - scraped.at > 1000)
        scraped = { at: now, answer: store.webhooks.backlog(new Date(now).toISOString()) };
      return scraped.answer;
    };
    new Gauge({
      name: 'ota_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet succeeded or given up, all tenants (due now or waiting for a retry)',
      registers: [this.registry],
      async collect() {
        this.set((await backlog()).pending);
      },
    });
    new Gauge({
      name: 'ota_webhook_deliveries_due',
      help: 'Webhook deliveries due now (the backlog the dispatchers have to work off)',
      registers: [this.registry],
      async collect() {
        this.set((await backlog()).due);
      },
    });
    new Gauge({
      name: 'ota_webhook_oldest_due_age_seconds',
      help: 'How long the soonest due webhook delivery has been due; 0 when none is',
      registers: [this.registry],
      async collect() {
        const oldest = (await backlog()).oldestDueAt;
        this.set(oldest ? Math.max(0, (clock.now().getTime() - Date.parse(oldest)) / 1000) : 0);
      },
    });
    const streams = () => this.streamStats();
    new Gauge({
      name: 'ota_event_streams_open',
      help: 'Live event streams (GET /api/open/events/stream) open on this process',
      registers: [this.registry],
      collect() {
        this.set(streams().open);
      },
    });
    new Gauge({
      name: 'ota_event_stream_unread_bytes',
      help: 'Bytes written to open event streams that their clients have not read yet: the sum, and the largest of one stream',
      labelNames: ['of'],
      registers: [this.registry],
      collect() {
        const stats = streams();
        this.set({ of: 'sum' }, stats.unreadBytes);
        this.set({ of: 'max' }, stats.maxUnreadBytes);
      },
    });
    new Gauge({
      name: 'ota_event_stream_reader_age_seconds',
      help: "Time since the streams' shared reader last read the event log (it reads every EVENT_POLL_MS at least); 0 without streams",
      registers: [this.registry],
      collect() {
        this.set(streams().readerAgeSeconds);
      },
    });
  }

  /** The live streams of this process, as `EventStreams.stats` tells them. */
  watchStreams(stats: () => StreamStats): void {
    this.streamStats = stats;
  }

  webhookAttempt(outcome: string, seconds: number): void {
    this.webhookAttempts.observe({ outcome }, seconds);
  }

  request(operation: string, status: number, seconds: number): void {
    this.requests.observe({ operation, status: String(status) }, seconds);
  }

  parserTask(kind: string, outcome: string, seconds: number): void {
    this.parserTasks.observe({ kind, outcome }, seconds);
  }

  private heapPeak = 0;

  parserHeap(bytes: number): void {
    if (bytes <= this.heapPeak) return;
    this.heapPeak = bytes;
    this.parserHeapPeak.set(bytes);
  }

  parserGaveWay(seconds: number): void {
    this.parserGaveWaySeconds.inc(seconds);
  }

  uploaded(bytes: number): void {
    this.uploadBytes.inc(bytes);
  }
}
