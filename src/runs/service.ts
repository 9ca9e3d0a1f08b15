import type { HeldKey } from '../store/held-key.js';
import { Signal } from '../kernel/signal.js';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS } from '../kernel/errors.js';
import type { Principal, RunFilter, RunOptions, RunRow, RunTarget, Store } from '../store/types.js';
import type { Clock } from '../kernel/time.js';
import { BlobMissingError, type BlobStore, type OpenedBlob } from '../blobs/blob-store.js';
import { outputKey } from './outputs.js';
import { create } from './lifecycle.js';

export const DEFAULT_TARGET: RunTarget = 'pdf-preflight';

/** The options each target takes (the contract's RunOptions); any other is refused. */
const TARGET_OPTIONS: Record<RunTarget, readonly (keyof RunOptions)[]> = {
  'pdf-preflight': [],
  'pdf-text': [],
  'pdf-print': ['min_ppi', 'cmyk'],
  'pdf-archive': ['pdfa_part'],
  'pdf-accessibility': [],
};

function checkOptions(target: RunTarget, options: RunOptions): void {
  const refused = Object.keys(options).filter(
    (key) => !TARGET_OPTIONS[target].includes(key as keyof RunOptions),
  );
  if (refused.length === 0) return;
  throw ERRORS.runOptionsNotTaken(target, refused);
}

/** What a 429 for a full queue tells the caller to wait: about a run's time on a busy worker. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 10;

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The API side of diagnosis runs: create, read, list, rerun. The worker (src/worker) executes them. */
export class Runs {
  /** This process queued work: an in-process worker claims it without waiting for its poll. */
  readonly queued = new Signal();
  /** A run lists an output whose bytes are gone: data loss an operator must see. */
  readonly outputMissing = new Signal<{ run_id: string; name: string }>();

  constructor(
    private readonly store: Store,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    private readonly maxQueuedPerTenant: number,
  ) {}

  private tooManyQueued() {
    return ERRORS.tooManyQueuedRuns(this.maxQueuedPerTenant, QUEUE_FULL_RETRY_AFTER_SECONDS);
  }

  async create(
    principal: Principal,
    fileId: string,
    target: RunTarget = DEFAULT_TARGET,
    options: RunOptions = {},
    effect?: HeldKey,
  ): Promise<RunRow> {
    checkOptions(target, options);
    const file = await this.store.uploads.getFile(principal.tenantId, fileId);
    if (!file) {
      // a first try often passes the upload's id: say so, and which id to pass
      const upload = await this.store.uploads.get(principal.tenantId, fileId);
      throw upload ? ERRORS.fileIdIsAnUpload(upload.id, upload.file_id) : ERRORS.notFound('File');
    }
    const run = create({
      id: randomUUID(),
      tenant_id: principal.tenantId,
      file_id: file.id,
      user_id: principal.userId,
      created_by: principal.userId,
      created_by_type: 'user',
      target,
      input_file_name: file.file_name,
      queue_message_id: randomUUID(),
      created_at: this.clock.now().toISOString(),
      options,
    });
    // with nothing to record beside it, a creation is a unit of its own: one statement on PostgreSQL
    const created = effect
      ? await this.store.transaction(
          principal.tenantId,
          async (tx) => {
            const outcome = await tx.runs.create(run, this.maxQueuedPerTenant);
            if (outcome === 'created') await tx.recordEffect(run.id);
            return outcome;
          },
          effect,
        )
      : await this.store.runs.create(run, this.maxQueuedPerTenant);
    if (created === 'over_limit') throw this.tooManyQueued();
    this.queued.emit();
    return run;
  }

  async get(tenantId: string, runId: string): Promise<RunRow> {
    const run = await this.store.runs.get(tenantId, runId);
    if (!run) throw ERRORS.notFound('Run');
    return run;
  }

  async list(tenantId: string, filter: RunFilter, limit: number, offset: number, startingAfter?: string) {
    const page = await this.store.runs.list(tenantId, filter, limit, offset, startingAfter);
    if (!page) throw ERRORS.notFound('Run');
    return page;
  }

  async rerun(tenantId: string, runId: string, effect?: HeldKey): Promise<RunRow> {
    const at = this.clock.now().toISOString();
    const result = await this.store.transaction(
      tenantId,
      async (tx) => {
        const outcome = await tx.runs.rerun(runId, randomUUID(), at, this.maxQueuedPerTenant);
        if (typeof outcome === 'object') await tx.recordEffect(runId);
        return outcome;
      },
      effect,
    );
    if (result === undefined) throw ERRORS.notFound('Run');
    if (result === 'conflict') {
      throw ERRORS.runNotFinished();
    }
    if (result === 'over_limit') throw this.tooManyQueued();
    this.queued.emit();
    return result;
  }

  /** Cancels a queued or running run; it books nothing (see the contract). */
  async cancel(tenantId: string, runId: string, effect?: HeldKey): Promise<RunRow> {
    const at = this.clock.now().toISOString();
    const result = await this.store.transaction(
      tenantId,
      async (tx) => {
        const outcome = await tx.runs.cancel(runId, at);
        if (typeof outcome === 'object') await tx.recordEffect(runId);
        return outcome;
      },
      effect,
    );
    if (result === undefined) throw ERRORS.notFound('Run');
    if (result === 'conflict') {
      throw ERRORS.runFinished();
    }
    return result;
  }

  async openOutput(
    tenantId: string,
    runId: string,
    name: string,
  ): Promise<{ stream: Readable; size: number; contentType: string }> {
    const run = await this.get(tenantId, runId);
    if (!run.output_files.includes(name)) throw ERRORS.notFound('Output file');
    const extension = name.slice(name.lastIndexOf('.'));
    let opened: OpenedBlob;
    try {
      // opened before anything is answered: a missing file is a 404, never a 200 that breaks off
      opened = await this.blobs.open(outputKey(run.tenant_id, run.id, run.queue_message_id, name));
    } catch (error) {
      if (!(error instanceof BlobMissingError)) throw error;
      this.outputMissing.emit({ run_id: run.id, name });
      throw ERRORS.notFound('Output file');
    }
    return { ...opened, contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream' };
  }
}
