import { createHash } from 'node:crypto';
import { mkdir, open, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { components, operations } from '../generated/openapi.js';
import { type ErrorEnvelope, IntegrityError, NetworkError, networkFailure, OtaError } from './errors.js';
import { type Event, eventStream, type StreamOptions } from './event-stream.js';
import { verifyWebhook } from './webhooks.js';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { backoffMs, RETRY_STATUSES, parseRateLimit, retryAfterMs, sleep } from './retry.js';
import { ApiTransport, type TransportOptions, unwrap } from './transport.js';
import { API_VERSION } from '../generated/version.js';

export type Schemas = components['schemas'];
export type Run = Schemas['Run'];
export type RunTarget = Schemas['RunTarget'];
export type RunOptions = Schemas['RunOptions'];
export type PreflightReport = Schemas['PreflightReport'];
export type Profile = Schemas['Profile'];
export type RunStatus = Schemas['RunStatus'];
export type Upload = Schemas['Upload'];
export type CompletedUpload = Schemas['CompletedUpload'];
export type Transaction = Schemas['Transaction'];
export type Dashboard = Schemas['Dashboard'];
export type RunListQuery = NonNullable<operations['listRuns']['parameters']['query']>;
export type TransactionQuery = NonNullable<operations['listRevenueTransactions']['parameters']['query']>;
export type OutputName = operations['downloadRunFile']['parameters']['path']['name'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type SubscribedEventType = Schemas['SubscribedEventType'];
export type EventListQuery = NonNullable<operations['listEvents']['parameters']['query']>;

export interface ClientOptions extends TransportOptions {
  /** A tenant API token (`ota_...`). */
  token: string;
  /**
   * The API version to speak, sent as `Open-Tenant-Version` on every request: by default API_VERSION, the
   * version this client was generated from, whose answers its types describe. Another version's answers
   * may not be what the types say; a version the server does not support is 400 `unsupported_version`.
   */
  apiVersion?: string;
}

/** The versions a server supports and the one the tenant is pinned to (`GET /api/open/versions`). */
export type ApiVersions =
  operations['listApiVersions']['responses'][200]['content']['application/json']['data'];

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  partsDone: number;
  partCount: number;
}

export interface UploadOptions {
  /** The name the file gets; by default the path's base name. */
  fileName?: string;
  /** Parts sent at once (default 4). */
  concurrency?: number;
  /** Resume this upload: only the parts it is missing are sent. */
  resumeUploadId?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

export interface WaitOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /**
   * Poll interval (default 250 ms) when the event stream cannot be used; while it is, the run is also read
   * every eight intervals, for its progress.
   */
  intervalMs?: number;
  /** Wait by polling only, never through the event stream. */
  poll?: boolean;
  onProgress?: (run: Run) => void;
  signal?: AbortSignal;
}

const FINISHED: RunStatus[] = ['succeeded', 'failed', 'cancelled'];

/** PUTs bytes as they are (no copy) and collects the (small) answer. */
function putBytes(
  url: URL,
  headers: Record<string, string>,
  bytes: Buffer,
  signal?: AbortSignal,
): Promise<{ status: number; headers: Headers; body: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'PUT',
        signal,
        headers: {
          ...headers,
          'content-type': 'application/pdf',
          'content-length': String(bytes.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') headers.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
        });
      },
    );
    req.on('error', reject);
    req.end(bytes);
  });
}

/** `into` is a buffer to reuse when it is large enough (a file's parts go through a few buffers only). */
type PartReader = ((length: number, into?: Buffer) => Promise<Buffer>) & { close(): Promise<void> };

/** Reads consecutive parts of a file or a stream, each into a buffer of its own. */
async function partReader(source: string | { stream: Readable }): Promise<PartReader> {
  if (typeof source === 'string') {
    const handle = await open(source, 'r');
    let position = 0;
    const read = async (length: number, into?: Buffer) => {
      const buffer = into && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
        if (bytesRead === 0) throw new Error(`${source} is shorter than it was when the upload started`);
        filled += bytesRead;
      }
      position += length;
      return buffer;
    };
    return Object.assign(read, { close: () => handle.close() });
  }
  const chunks = source.stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const carry: Buffer[] = [];
  const read = async (length: number) => {
    let have = carry.reduce((n, b) => n + b.length, 0);
    while (have < length) {
      const next = await chunks.next();
      if (next.done) throw new Error('the stream ended before the size it was declared with');
      carry.push(next.value);
      have += next.value.length;
    }
    const all = Buffer.concat(carry.splice(0));
    if (all.length > length) carry.push(all.subarray(length));
    return all.subarray(0, length);
  };
  return Object.assign(read, { close: async () => undefined });
}

/**
 * The Open Tenant API for programs. `api` is the raw typed client (every operation of the contract); the
 * methods around it are what every integrator would otherwise write: uploads in parallel parts with resume,
 * waiting for runs, diagnosing a file in one call, and iterators over every page of a list.
 */
export class OpenTenantClient extends ApiTransport {
  /** The version every request is sent at (`Open-Tenant-Version`): `apiVersion`, else API_VERSION. */
  readonly apiVersion: string;

  constructor(options: ClientOptions) {
    const apiVersion = options.apiVersion ?? API_VERSION;
    super(options, { 'open-tenant-version': apiVersion });
    this.apiVersion = apiVersion;
  }

  /** The headers every request carries: the token and the version. */
  private get requestHeaders(): Record<string, string> {
    return { authorization: `Bearer ${this.options.token}`, 'open-tenant-version': this.apiVersion };
  }

  /** The versions the server supports, its newest, and the one this tenant is pinned to. */
  async versions(): Promise<ApiVersions> {
    return unwrap(await this.api.GET('/api/open/versions')).data;
  }

  async dashboard(): Promise<Dashboard> {
    return unwrap(await this.api.GET('/api/open/finance/dashboard')).data;
  }

  async listTransactions(query: TransactionQuery = {}) {
    return unwrap(await this.api.GET('/api/open/finance/transactions', { params: { query } }));
  }

  /** Every transaction matching `query`, page after page. */
  async *transactions(query: Omit<TransactionQuery, 'page'> = {}): AsyncGenerator<Transaction> {
    for (let page = 1; ; page++) {
      const answer = await this.listTransactions({ page_size: 100, ...query, page });
      yield* answer.data;
      if (page >= answer.total_pages || answer.data.length === 0) return;
    }
  }

  async listRuns(query: RunListQuery = {}) {
    return unwrap(await this.api.GET('/api/open/runs', { params: { query } }));
  }

  /** Every run matching `query`, newest first, page after page (by cursor: deep pages cost what the first does). */
  async *runs(query: Omit<RunListQuery, 'offset' | 'starting_after'> = {}): AsyncGenerator<Run> {
    let cursor: string | undefined;
    for (;;) {
      const answer = await this.listRuns({ limit: 100, ...query, starting_after: cursor });
      yield* answer.data;
      if (!answer.next_cursor) return;
      cursor = answer.next_cursor;
    }
  }

  async getRun(runId: string): Promise<Run> {
    return unwrap(await this.api.GET('/api/open/runs/{run_id}', { params: { path: { run_id: runId } } }))
      .data;
  }

  /** `options` are the target's (RunOptions): `{ min_ppi, cmyk }` for `pdf-print`. */
  async createRun(fileId: string, target: RunTarget = 'pdf-preflight', options?: RunOptions): Promise<Run> {
    return unwrap(
      await this.api.POST('/api/open/runs', {
        body: { file_id: fileId, target, ...(options ? { options } : {}) },
      }),
    ).data;
  }

  async rerunRun(runId: string): Promise<Run> {
    return unwrap(
      await this.api.POST('/api/open/runs/{run_id}/rerun', { params: { path: { run_id: runId } } }),
    ).data;
  }

  async cancelRun(runId: string): Promise<Run> {
    return unwrap(
      await this.api.POST('/api/open/runs/{run_id}/cancel', { params: { path: { run_id: runId } } }),
    ).data;
  }

  /** One output file of a run, as bytes. */
  async downloadRunFile(runId: string, name: OutputName): Promise<Buffer> {
    const result = await this.api.GET('/api/open/runs/{run_id}/files/{name}', {
      params: { path: { run_id: runId, name } },
      parseAs: 'arrayBuffer',
    });
    if (result.error !== undefined || result.data === undefined) {
      throw new OtaError(result.response.status, result.error as Partial<ErrorEnvelope> | undefined);
    }
    return Buffer.from(result.data as ArrayBuffer);
  }

  async getUpload(uploadId: string): Promise<Upload> {
    return unwrap(
      await this.api.GET('/api/open/uploads/{upload_id}', { params: { path: { upload_id: uploadId } } }),
    ).data;
  }

  /**
   * Waits until a run has finished (succeeded, failed or cancelled) and returns it: told by the event stream
   * when the server has one, by polling otherwise (or when the stream cannot be opened).
   */
  async waitForRun(runId: string, options: WaitOptions = {}): Promise<Run> {
    const timeoutMs = options.timeoutMs ?? 600_000;
    const intervalMs = options.intervalMs ?? 250;
    const deadline = Date.now() + timeoutMs;
    const stop = new AbortController();
    const onAbort = () => stop.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let streamWorks = options.poll !== true;
    const told = streamWorks
      ? (async () => {
          try {
            const events = this.eventStream({
              signal: stop.signal,
              // a broken or refused stream (429: too many open) leaves the wait to polling
              onReconnect: () => {
                streamWorks = false;
              },
            });
            for await (const event of events) {
              if (!event.type.startsWith('run.')) continue;
              const run = event.data.object as Run;
              if (run.id === runId && FINISHED.includes(run.status)) return run;
            }
          } catch {
            // no stream (an older server, too many open, aborted): polling carries on alone
          }
          streamWorks = false;
          return undefined;
        })()
      : Promise.resolve(undefined);
    try {
      for (;;) {
        const run = await this.getRun(runId);
        options.onProgress?.(run);
        if (FINISHED.includes(run.status)) return run;
        if (Date.now() > deadline)
          throw new Error(`run ${runId} is still ${run.status} after ${timeoutMs} ms`);
        const pause = sleep(streamWorks ? intervalMs * 8 : intervalMs, stop.signal).then(
          () => undefined,
          () => undefined,
        );
        const ended = await Promise.race([told, pause]).catch(() => undefined);
        options.signal?.throwIfAborted();
        if (ended) {
          options.onProgress?.(ended);
          return ended;
        }
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      stop.abort();
      await told;
    }
  }

  /** One page of the tenant's events, newest first (`next_cursor` pages on). */
  async listEvents(query: EventListQuery = {}) {
    return unwrap(await this.api.GET('/api/open/events', { params: { query } }));
  }

  /**
   * The tenant's events as they happen (Server-Sent Events), resumed with Last-Event-ID after a broken
   * connection; ends when `signal` aborts.
   */
  eventStream(options: StreamOptions = {}): AsyncGenerator<Event> {
    return eventStream(this.options.baseUrl, this.requestHeaders, this.options.fetch ?? fetch, options);
  }

  /** Webhook endpoints, and `verify` for receivers. */
  readonly webhooks = {
    /**
     * Checks a delivery's Standard Webhooks signature against the endpoint's secret; returns its event. A
     * delivery is rendered at its endpoint's version, the one of the request that created it: `Event` (its
     * object under `data.object`) for an endpoint this client's `webhooks.add` created.
     */
    verify: (secret: string, headers: Parameters<typeof verifyWebhook>[1], body: string | Buffer): Event =>
      verifyWebhook<Event>(secret, headers, body),
    add: async (
      url: string,
      options: { events?: SubscribedEventType[]; description?: string } = {},
    ): Promise<WebhookEndpointWithSecret> =>
      unwrap(await this.api.POST('/api/open/webhook_endpoints', { body: { url, ...options } })).data,
    list: async (): Promise<WebhookEndpoint[]> =>
      unwrap(await this.api.GET('/api/open/webhook_endpoints')).data,
    get: async (id: string): Promise<WebhookEndpoint> =>
      unwrap(
        await this.api.GET('/api/open/webhook_endpoints/{endpoint_id}', {
          params: { path: { endpoint_id: id } },
        }),
      ).data,
    delete: async (id: string): Promise<void> => {
      unwrap(
        await this.api.DELETE('/api/open/webhook_endpoints/{endpoint_id}', {
          params: { path: { endpoint_id: id } },
        }),
      );
    },
    rotate: async (id: string): Promise<WebhookEndpointWithSecret> =>
      unwrap(
        await this.api.POST('/api/open/webhook_endpoints/{endpoint_id}/rotate_secret', {
          params: { path: { endpoint_id: id } },
        }),
      ).data,
    enable: async (id: string): Promise<WebhookEndpoint> =>
      unwrap(
        await this.api.POST('/api/open/webhook_endpoints/{endpoint_id}/enable', {
          params: { path: { endpoint_id: id } },
        }),
      ).data,
    deliveries: async (id: string, limit = 20): Promise<DeliveryAttempt[]> =>
      unwrap(
        await this.api.GET('/api/open/webhook_endpoints/{endpoint_id}/deliveries', {
          params: { path: { endpoint_id: id }, query: { limit } },
        }),
      ).data,
  };

  /**
   * Uploads a file: start (or resume), send the parts the server lacks, `concurrency` at a time (a part
   * that fails on the network is sent again), complete, and check the stored SHA-256 against the bytes
   * sent. A stream needs `size`; a path is read part by part, never whole.
   */
  async uploadFile(
    source: string | { stream: Readable; size: number; fileName: string },
    options: UploadOptions = {},
  ): Promise<CompletedUpload> {
    const size = typeof source === 'string' ? (await stat(source)).size : source.size;
    const fileName =
      options.fileName ?? (typeof source === 'string' ? path.basename(source) : source.fileName);
    const upload = options.resumeUploadId
      ? await this.getUpload(options.resumeUploadId)
      : unwrap(
          await this.api.POST('/api/open/uploads', {
            body: { file_name: fileName, size_bytes: size, content_type: 'application/pdf' },
          }),
        ).data;
    if (upload.size_bytes !== size) {
      throw new Error(`upload ${upload.upload_id} expects ${upload.size_bytes} bytes; the file has ${size}`);
    }
    const missing = new Set(upload.missing_parts);
    const progress: UploadProgress = {
      sentBytes: size - upload.missing_parts.reduce((n, p) => n + this.partLength(upload, p), 0),
      totalBytes: size,
      partsDone: upload.part_count - missing.size,
      partCount: upload.part_count,
    };
    options.onProgress?.({ ...progress });

    // parts are read in order (the whole file's hash needs every byte) and sent `concurrency` at a time;
    // a path is read part by part into one buffer each, a stream is cut into parts as it flows
    const hash = createHash('sha256');
    const readPart = await partReader(source);
    const inFlight = new Set<Promise<void>>();
    // buffers of parts that have been sent, ready for the next ones: memory stays at `concurrency` parts
    const spare: Buffer[] = [];
    let failure: unknown;
    try {
      for (let part = 1; part <= upload.part_count; part++) {
        const bytes = await readPart(this.partLength(upload, part), spare.pop());
        hash.update(bytes);
        if (!missing.has(part)) {
          spare.push(bytes);
          continue;
        }
        options.signal?.throwIfAborted();
        const sending = this.sendPart(upload.upload_id, part, bytes, options.signal).then(
          () => {
            progress.sentBytes += bytes.length;
            progress.partsDone++;
            spare.push(
              Buffer.from(
                bytes.buffer,
                bytes.byteOffset,
                upload.part_size <= bytes.buffer.byteLength - bytes.byteOffset
                  ? upload.part_size
                  : bytes.length,
              ),
            );
            options.onProgress?.({ ...progress });
          },
          (error: unknown) => {
            failure ??= error;
          },
        );
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
        if (inFlight.size >= (options.concurrency ?? 4)) await Promise.race(inFlight);
        if (failure) break;
      }
    } finally {
      await readPart.close();
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    const completed = unwrap(
      await this.api.POST('/api/open/uploads/complete', { body: { upload_id: upload.upload_id } }),
    ).data;
    const sent = hash.digest('hex');
    if (completed.sha256 !== sent) throw new IntegrityError(sent, completed.sha256);
    return completed;
  }

  private partLength(upload: Upload, part: number): number {
    return part < upload.part_count
      ? upload.part_size
      : upload.size_bytes - (upload.part_count - 1) * upload.part_size;
  }

  /**
   * One part over node:http rather than fetch: fetch copies a bytes body before sending it, and a part is
   * megabytes. Retried like every other request (429 and 503 as told, network errors with backoff).
   */
  private async sendPart(uploadId: string, part: number, bytes: Buffer, signal?: AbortSignal): Promise<void> {
    const url = new URL(
      `${this.options.baseUrl.replace(/\/+$/, '')}/api/open/uploads/${uploadId}/parts/${part}`,
    );
    for (let attempt = 0; ; attempt++) {
      let answer: { status: number; headers: Headers; body: string };
      try {
        answer = await putBytes(url, this.requestHeaders, bytes, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        if (attempt >= this.retry.retries) throw new NetworkError('PUT', url.href, attempt + 1, error);
        const delayMs = backoffMs(this.retry, attempt);
        const { code, reason } = networkFailure(error);
        this.options.onRetry?.({
          status: 'network',
          delayMs,
          attempt: attempt + 1,
          url: url.href,
          reason: code ?? reason,
        });
        await sleep(delayMs, signal);
        continue;
      }
      const limits = parseRateLimit(answer.headers);
      if (limits) this.rateLimit = limits;
      if (answer.status === 200) return;
      let body: Partial<ErrorEnvelope> | undefined;
      try {
        body = JSON.parse(answer.body) as Partial<ErrorEnvelope>;
      } catch {
        body = undefined;
      }
      if (RETRY_STATUSES.has(answer.status) && attempt < this.retry.retries) {
        const delayMs = retryAfterMs(answer) ?? backoffMs(this.retry, attempt);
        this.options.onRetry?.({
          status: answer.status,
          error: body?.error,
          delayMs,
          attempt: attempt + 1,
          url: url.href,
        });
        await sleep(delayMs, signal);
        continue;
      }
      throw new OtaError(answer.status, body);
    }
  }

  /**
   * Upload, run, wait, and fetch the outputs: one call from a file on disk to its report. With `outDir`
   * every output is written there too.
   */
  async diagnose(
    file: string,
    options: {
      target?: RunTarget;
      runOptions?: RunOptions;
      outDir?: string;
      onUploadProgress?: (progress: UploadProgress) => void;
      onRunProgress?: (run: Run) => void;
      timeoutMs?: number;
    } = {},
  ): Promise<{ upload: CompletedUpload; run: Run; outputs: Partial<Record<OutputName, Buffer>> }> {
    const upload = await this.uploadFile(file, { onProgress: options.onUploadProgress });
    const created = await this.createRun(
      upload.file_id,
      options.target ?? 'pdf-preflight',
      options.runOptions,
    );
    const run = await this.waitForRun(created.id, {
      onProgress: options.onRunProgress,
      timeoutMs: options.timeoutMs,
    });
    const outputs = await this.downloadRunOutputs(run, options.outDir);
    return { upload, run, outputs };
  }

  /** Every output of a finished run (`output_files`), as bytes; with `outDir` written there too. */
  async downloadRunOutputs(run: Run, outDir?: string): Promise<Partial<Record<OutputName, Buffer>>> {
    const outputs: Partial<Record<OutputName, Buffer>> = {};
    for (const name of run.output_files as OutputName[]) {
      outputs[name] = await this.downloadRunFile(run.id, name);
      if (outDir) {
        await mkdir(outDir, { recursive: true });
        await writeFile(path.join(outDir, name), outputs[name]!);
      }
    }
    return outputs;
  }
}

export function createClient(options: ClientOptions): OpenTenantClient {
  return new OpenTenantClient(options);
}
