import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RunStatus, Store } from '../store/types.js';
import type { Clock } from '../time.js';

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

  uploaded(bytes: number): void {
    this.uploadBytes.inc(bytes);
  }
}
