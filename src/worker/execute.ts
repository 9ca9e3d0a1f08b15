import { outputKey } from '../runs/outputs.js';
import type { ClaimedRun, RunErrorCode, RunOutcome, RunProgress, RunTarget } from '../store/types.js';
import { isProfile, judge, judgedByRules, type ProfileSettings } from '../diagnosis/profiles.js';
import type { Clock } from '../kernel/time.js';
import { BlobMissingError, type BlobStore } from '../blobs/blob-store.js';
import type { DocumentFacts, PageFacts } from '../pdf/facts.js';
import { type PdfPool, TaskFailure } from '../pdf/pool.js';
import type { PageOutcome, PdfTask, PdfTaskResult, TaskFailureKind } from '../pdf/tasks.js';
import {
  buildReport,
  type PageResult,
  pagesWorthAPicture,
  type PreflightReport,
} from '../diagnosis/report.js';
import { type ReportLimits, renderReportHtml, THUMBNAIL_WIDTH } from '../diagnosis/report-html.js';

export interface ExecutionDeps {
  pool: PdfPool;
  blobs: BlobStore;
  clock: Clock;
  pointsPerPage: Record<RunTarget, number>;
  profiles: ProfileSettings;
  /** A run still going after this long fails and books nothing. */
  runTimeoutMs: number;
  report: ReportLimits;
}

export interface ExecutionHooks {
  onProgress(progress: RunProgress): void;
  /** True once the worker has lost its lease: stop dispatching, the result will not be kept. */
  stopped(): boolean;
}

export class ExecutionStopped extends Error {}

class RunTimedOut extends Error {}

export function progressOf(total: number, completed: number, failed: number): RunProgress {
  return {
    total_tasks: total,
    completed_tasks: completed,
    failed_tasks: failed,
    progress: total === 0 ? 0 : Math.floor((100 * (completed + failed)) / total),
  };
}

/**
 * Settles with `work`, or rejects with RunTimedOut at `deadline`: the parser tasks still in flight then
 * run out on the pool (each bounded by the task timeout), unawaited, and `expired()` tells loops to stop.
 */
function beforeDeadline(deadline: number) {
  let expired = false;
  return {
    expired: () => expired || Date.now() >= deadline,
    async race<T>(work: Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const expiry = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            expired = true;
            reject(new RunTimedOut());
          },
          Math.max(0, deadline - Date.now()),
        );
      });
      try {
        return await Promise.race([work, expiry]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
type Deadline = ReturnType<typeof beforeDeadline>;

/**
 * Runs `work` over 1..count in batches of at most `size` pages, at most `parallel` batches in flight, until
 * the deadline; the results in page order.
 */
async function forEachBatch<T>(
  count: number,
  size: number,
  parallel: number,
  hooks: ExecutionHooks,
  deadline: Deadline,
  work: (first: number, count: number) => Promise<T[]>,
) {
  const results: T[] = new Array(count);
  let filled = 0;
  let next = 1;
  const lanes = Array.from({ length: Math.min(parallel, Math.ceil(count / size)) }, async () => {
    while (next <= count && !deadline.expired()) {
      if (hooks.stopped()) throw new ExecutionStopped('lease lost');
      const first = next;
      const taken = Math.min(size, count - first + 1);
      next += taken;
      const batch = await work(first, taken);
      for (let i = 0; i < batch.length; i++) results[first - 1 + i] = batch[i]!;
      filled += batch.length;
    }
  });
  await deadline.race(Promise.all(lanes));
  // the lanes stop at the deadline, and may see it pass before its timer fires: pages left unread mean the
  // run timed out, never a report that leaves them out
  if (filled < count) throw new RunTimedOut();
  return results;
}

/**
 * Pages per parser task of a report run. Each task crosses the pool and the event loop twice, ~0.7 ms on a
 * 2-core machine against ~2.5 ms of parsing for a page of a real manual: four pages a task pay that once.
 */
export const PAGES_PER_TASK = 4;

/** What a file that does not open fails its run with. */
const OPEN_FAILURES: Record<TaskFailureKind, RunErrorCode> = {
  invalid_pdf: 'invalid_pdf',
  page_error: 'invalid_pdf',
  encrypted: 'encrypted_pdf',
  timeout: 'pdf_too_complex',
  out_of_memory: 'pdf_too_complex',
  crashed: 'parser_crashed',
};

const timedOutMessage = (runTimeoutMs: number) =>
  `The run took longer than ${Math.round(runTimeoutMs / 1000)} s and was stopped`;

function failureReason(error: unknown): string {
  if (error instanceof TaskFailure) return error.message;
  throw error;
}

/**
 * Executes one claimed run: a document task, then one task per page on the parser pool. A page that fails
 * is counted and reported and the run goes on; a file that does not open fails the run.
 */
export async function executeRun(
  claim: ClaimedRun,
  deps: ExecutionDeps,
  hooks: ExecutionHooks,
): Promise<RunOutcome> {
  try {
    // the parser reads a file on local disk: with an object store, a scratch copy for this run only
    return await deps.blobs.withLocalFile(claim.storageKey, async (path) => {
      try {
        return await executeOnFile(claim, deps, hooks, path);
      } finally {
        // the parser threads let go of the file with the run: its memory does not stay in the process
        deps.pool.forget(path);
      }
    });
  } catch (error) {
    if (!(error instanceof BlobMissingError)) throw error;
    return {
      ...progressOf(1, 0, 1),
      status: 'failed',
      points_consumed: 0,
      output_files: [],
      error: 'The uploaded file is missing from storage',
      error_code: 'file_missing',
      completed_at: deps.clock.now().toISOString(),
    };
  }
}

async function executeOnFile(
  claim: ClaimedRun,
  deps: ExecutionDeps,
  hooks: ExecutionHooks,
  path: string,
): Promise<RunOutcome> {
  const { run } = claim;
  const deadline = beforeDeadline(Date.now() + deps.runTimeoutMs);
  const failed = (error: string, code: RunErrorCode, progress: RunProgress): RunOutcome => ({
    ...progress,
    status: 'failed',
    points_consumed: 0,
    output_files: [],
    error,
    error_code: code,
    completed_at: deps.clock.now().toISOString(),
  });

  // the published rules are read where a profile reads them: a run of pdf-preflight does not pay for them
  const judged = judgedByRules(run.target);
  const openFailure = (error: unknown): RunOutcome => {
    if (error instanceof RunTimedOut)
      return failed(timedOutMessage(deps.runTimeoutMs), 'run_timeout', progressOf(1, 0, 1));
    const reason =
      error instanceof TaskFailure && error.kind === 'encrypted'
        ? 'The PDF is encrypted with a password and cannot be diagnosed'
        : failureReason(error);
    return failed(reason, OPEN_FAILURES[(error as TaskFailure).kind], progressOf(1, 0, 1));
  };
  // the page count first, so that the pages need not wait for the document's own facts: with the published
  // rules, a long document's take seconds, on a thread of its own. The upload read it (the same PDFium on the
  // same bytes); a file it could not count is opened for it (nothing read). A pdf-text run reads its pages
  // after the document, as before
  let pagesKnown = run.target === 'pdf-text' ? undefined : (claim.pageCount ?? undefined);
  if (pagesKnown === undefined && run.target !== 'pdf-text') {
    try {
      pagesKnown =
        (await deadline.race(deps.pool.run({ kind: 'probe', path }, run.tenant_id))).pageCount ?? undefined;
    } catch (error) {
      if (error instanceof RunTimedOut) return openFailure(error);
      // the document's task below fails as the file does, and says why
    }
  }
  let completed = 0;
  let failedTasks = 0;
  let total = 1 + (pagesKnown ?? 0);
  const settle = (ok: boolean) => {
    if (ok) completed++;
    else failedTasks++;
    hooks.onProgress(progressOf(total, completed, failedTasks));
  };
  /** Set when the file does not open after all: the pages read ahead stop being dispatched. */
  let abandoned = false;
  const onePage = async <K extends 'page' | 'text'>(
    kind: K,
    page: number,
  ): Promise<PageResult<PdfTaskResult[K]>> => {
    try {
      const value = await deps.pool.run(
        { kind, path, page, ...(kind === 'page' ? { judged } : {}) } as Extract<PdfTask, { kind: K }>,
        run.tenant_id,
      );
      settle(true);
      return { page, status: 'ok', value };
    } catch (error) {
      const reason = failureReason(error);
      settle(false);
      return { page, status: 'failed', error: reason };
    }
  };
  const runTextPages = (pageCount: number) =>
    forEachBatch(pageCount, 1, deps.pool.size, hooks, deadline, async (page) => [
      await onePage('text', page),
    ]);
  /**
   * The page facts in batches (PAGES_PER_TASK). A page past the memory cap ends its batch as a failed page,
   * and the pages after it are read one by one; a batch that fails as a whole (past its time, or its thread
   * crashed) is read again page by page, so that only the page at fault fails.
   */
  const runPageFacts = (pageCount: number) =>
    forEachBatch(
      pageCount,
      PAGES_PER_TASK,
      deps.pool.size,
      { stopped: () => abandoned || hooks.stopped(), onProgress: hooks.onProgress },
      deadline,
      async (first, count): Promise<PageResult<PageFacts>[]> => {
        if (count > 1) {
          let outcomes: PageOutcome[] | undefined;
          try {
            outcomes = await deps.pool.run(
              { kind: 'pages', path, page: first, count, judged },
              run.tenant_id,
            );
          } catch (error) {
            failureReason(error);
            const at = error instanceof TaskFailure ? error.page : undefined;
            // the thread was stopped on page `at` (past its time): that page fails without a second
            // try; the pages before it lost their answers with the thread and are read again
            if (at !== undefined && at >= first && at < first + count) {
              const results: PageResult<PageFacts>[] = [];
              for (let page = first; page < first + count && !deadline.expired(); page++) {
                if (page !== at) results.push(await onePage('page', page));
                else {
                  settle(false);
                  results.push({ page, status: 'failed', error: (error as Error).message });
                }
              }
              return results;
            }
          }
          if (outcomes) {
            const results = outcomes.map((outcome, i): PageResult<PageFacts> => {
              settle(outcome.ok);
              return outcome.ok
                ? { page: first + i, status: 'ok', value: outcome.facts }
                : { page: first + i, status: 'failed', error: outcome.message };
            });
            // a page that aborted its engine ended the batch: the pages after it, one by one
            for (let page = first + outcomes.length; page < first + count && !deadline.expired(); page++)
              results.push(await onePage('page', page));
            return results;
          }
        }
        const results: PageResult<PageFacts>[] = [];
        for (let page = first; page < first + count && !deadline.expired(); page++)
          results.push(await onePage('page', page));
        return results;
      },
    );

  const pagesAhead = pagesKnown === undefined ? undefined : runPageFacts(pagesKnown);
  // awaited below, once the document's task has ended: until then its failure is not unhandled
  pagesAhead?.catch(() => undefined);
  let doc: DocumentFacts;
  try {
    // the open counts against the run's time too: its task may wait in the pool behind other runs' tasks
    doc = await deadline.race(deps.pool.run({ kind: 'document', path, judged }, run.tenant_id));
  } catch (error) {
    abandoned = true;
    // the pages in flight end within a task each; none is dispatched after this
    await pagesAhead?.catch(() => undefined);
    return openFailure(error);
  }
  const pageCount = doc.page_count ?? 0;
  total = 1 + pageCount;
  settle(true);

  try {
    return await produceOutputs();
  } catch (error) {
    if (!(error instanceof RunTimedOut)) throw error;
    return failed(
      timedOutMessage(deps.runTimeoutMs),
      'run_timeout',
      progressOf(total, completed, failedTasks),
    );
  }

  async function produceOutputs(): Promise<RunOutcome> {
    const outputs: { name: string; body: string }[] = [];
    let pagesOk = 0;
    if (run.target !== 'pdf-text') {
      const target = run.target;
      // the pages read ahead are the document's when both counts agree; a count the upload read under another
      // version of the reader may not, and the document's own count is the one its report goes by
      let pages = pagesAhead && pagesKnown === pageCount ? await pagesAhead : undefined;
      if (!pages) {
        abandoned = true;
        await pagesAhead?.catch(() => undefined);
        abandoned = false;
        completed = 1;
        failedTasks = 0;
        pages = await runPageFacts(pageCount);
      }
      pagesOk = pages.filter((p) => p.status === 'ok').length;
      const report = buildReport(
        {
          run_id: run.id,
          file_id: run.file_id,
          file_name: run.input_file_name,
          generated_at: deps.clock.now().toISOString(),
        },
        doc,
        pages,
        isProfile(target) ? (facts) => judge(target, facts, run.options, deps.profiles) : undefined,
      );
      outputs.push({ name: 'report.json', body: `${JSON.stringify(report, null, 2)}\n` });
      const thumbnails = await renderThumbnails(deps, path, report, deadline, run.tenant_id);
      outputs.push({ name: 'report.html', body: renderReportHtml(report, thumbnails, deps.report) });
    } else {
      const pages = await runTextPages(pageCount);
      pagesOk = pages.filter((p) => p.status === 'ok').length;
      // pages separated by form feeds, as pdftotext does
      outputs.push({
        name: 'text.txt',
        body: pages.map((p) => (p.status === 'ok' ? p.value : '')).join('\f'),
      });
      const index = pages.map((p) =>
        p.status === 'ok'
          ? { page: p.page, status: p.status, characters: p.value.length, text: p.value, error: null }
          : { page: p.page, status: p.status, characters: 0, text: null, error: p.error },
      );
      outputs.push({
        name: 'pages.json',
        body: `${JSON.stringify({ run_id: run.id, pages: index }, null, 2)}\n`,
      });
    }
    if (hooks.stopped()) throw new ExecutionStopped('lease lost');

    // side by side: each is synced before the run may finish, and the syncs overlap
    const keys = outputs.map((output) => outputKey(run.tenant_id, run.id, claim.queueMessageId, output.name));
    const written = await Promise.allSettled(
      outputs.map((output, i) => deps.blobs.putBytes(keys[i]!, Buffer.from(output.body))),
    );
    const failure = written.find((result) => result.status === 'rejected');
    if (failure) {
      // the outputs that were written go too: on a full disk they hold the space the next try needs,
      // and a run that ends without its outputs must not leave some behind
      await Promise.all(
        written.map((result, i) =>
          result.status === 'fulfilled' ? deps.blobs.delete(keys[i]!).catch(() => undefined) : undefined,
        ),
      );
      throw failure.reason;
    }
    return {
      ...progressOf(total, completed, failedTasks),
      status: 'succeeded',
      points_consumed: pagesOk * deps.pointsPerPage[run.target],
      output_files: outputs.map((o) => o.name),
      error: null,
      error_code: null,
      completed_at: deps.clock.now().toISOString(),
    };
  }
}

/** Pictures of the pages with the most severe findings; a page that does not render simply has none. */
async function renderThumbnails(
  deps: ExecutionDeps,
  path: string,
  report: PreflightReport,
  deadline: Deadline,
  lane: string,
): Promise<Map<number, Uint8Array>> {
  const pages = pagesWorthAPicture(report.findings, deps.report.thumbnails, report.profile);
  const pictures = new Map<number, Uint8Array>();
  const rendering = Promise.all(
    pages.map(async (page) => {
      if (deadline.expired()) return;
      try {
        const png = await deps.pool.run({ kind: 'thumbnail', path, page, width: THUMBNAIL_WIDTH }, lane);
        if (!deadline.expired()) pictures.set(page, png);
      } catch (error) {
        if (!(error instanceof TaskFailure)) throw error;
      }
    }),
  );
  try {
    await deadline.race(rendering);
  } catch (error) {
    // the facts are all there: a report past its deadline goes out with the pictures it has
    if (!(error instanceof RunTimedOut)) throw error;
  }
  return new Map(pictures);
}
