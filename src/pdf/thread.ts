import { closeSync, fstatSync, openSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PNG } from 'pngjs';
import { lowerThreadPriority } from '../threads/batch-priority.js';
import { GiveWay } from '../threads/give-way.js';
import { linuxThreadId } from '../threads/thread-cpu.js';
import { CosFile } from './cos/file.js';
import { DocumentReader, type ObjectJudges } from './facts.js';
import { type OpenDocument, Pdfium, PdfiumAborted, PdfOpenError, type WasmModule } from './pdfium.js';
import type {
  ForgetRequest,
  PageOutcome,
  PdfTask,
  PdfTaskResult,
  TaskFailureKind,
  TaskRequest,
  TaskResponse,
} from './tasks.js';
import { OPEN_DOCUMENTS } from './thread-cache.js';

/**
 * A parser thread: one PDFium instance whose heap is capped. It keeps the last few documents open until
 * their run ends (`ForgetRequest`), so the pages of one run that land here share one parse of the xref and
 * page tree. An instance that aborted, or whose heap grew past the recycle mark, asks the pool for a fresh
 * thread: wasm memory never shrinks.
 */
const {
  reading,
  pdfium: compiled,
  heapLimitBytes,
  recycleHeapBytes,
  judgesModule,
  requestArrivals,
  givesWayMs,
  givesWayPerTaskMs,
  givesWayQuietMs,
} = workerData as {
  /** The process's count of requests, and how long this thread waits for them (src/threads/give-way.ts). */
  requestArrivals: Int32Array;
  givesWayMs: number;
  givesWayPerTaskMs: number;
  givesWayQuietMs: number;
  /**
   * Where this thread says which page it is reading, for the pool to tell when it has to stop it, and its
   * Linux thread id, for the pool to read its CPU time.
   */
  reading: Int32Array;
  pdfium: WasmModule;
  heapLimitBytes: number;
  recycleHeapBytes: number;
  /** The module whose `RULE_JUDGES` judge what this thread reads (PoolOptions.judges). */
  judgesModule?: string;
};

interface Opened {
  file: OpenDocument;
  reader: DocumentReader;
  objects?: { fd: number; cos: CosFile };
}

// the pool reads this thread's CPU time for its tasks' time limit
Atomics.store(reading, 1, linuxThreadId() ?? 0);
const pdfium = await Pdfium.create(heapLimitBytes, compiled);
// the rules are handed in by the pool's maker: src/pdf reads files and knows no rule
const judges = judgesModule
  ? ((await import(judgesModule)) as { RULE_JUDGES: ObjectJudges }).RULE_JUDGES
  : undefined;
const giveWay = new GiveWay(requestArrivals, givesWayMs, givesWayPerTaskMs, givesWayQuietMs);
const open = new Map<string, Opened>();

function documentAt(path: string): DocumentReader {
  const known = open.get(path);
  if (known) return known.reader;
  const file = pdfium.openFile(path);
  const opened: Opened = {
    file,
    reader: new DocumentReader(
      pdfium,
      file.handle,
      () => {
        if (!opened.objects) {
          const fd = openSync(path, 'r');
          try {
            opened.objects = { fd, cos: new CosFile(fd, fstatSync(fd).size) };
          } catch (error) {
            closeSync(fd);
            throw error;
          }
        }
        return opened.objects.cos;
      },
      judges,
    ),
  };
  open.set(path, opened);
  while (open.size > OPEN_DOCUMENTS) closeDocument(open.keys().next().value as string);
  return opened.reader;
}

function closeDocument(path: string): void {
  const opened = open.get(path);
  if (!opened) return;
  open.delete(path);
  opened.reader.close();
  opened.file.close();
  if (opened.objects) closeSync(opened.objects.fd);
}

function probe(path: string): PdfTaskResult['probe'] {
  try {
    return documentAt(path).probe();
  } catch (error) {
    if (error instanceof PdfOpenError && error.kind === 'encrypted') {
      return { pageCount: null, pdfVersion: null, encrypted: true };
    }
    throw error;
  }
}

function thumbnail(path: string, page: number, width: number): Uint8Array {
  const image = documentAt(path).renderPage(page - 1, width);
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.rgb.buffer, image.rgb.byteOffset, image.rgb.byteLength);
  // RGB in, no row filter: pngjs's adaptive filter choice tries all five per row and cost more than the
  // render; RGBA in made it repack every pixel. Rendered pages are flat colour: unfiltered rows deflate
  // smaller, in less time (bench/README.md, "Figures behind the code")
  return new Uint8Array(
    PNG.sync.write(png, { colorType: 2, inputColorType: 2, inputHasAlpha: false, filterType: 0 }),
  );
}

/**
 * Pages read one after another in one task: the pool and the event loop are crossed once for them all. A
 * page that throws is reported failed and the next is read. A page that aborts the engine (past its memory
 * cap) is reported failed and ends the task there: the pages after it are left to a fresh thread, and the
 * pool replaces this one (`recycle`), so the page at fault is never parsed twice.
 */
function pages(path: string, first: number, count: number, judged: string | undefined): PageOutcome[] {
  const reader = documentAt(path);
  const outcomes: PageOutcome[] = [];
  for (let page = first; page < first + count; page++) {
    // a task stopped while it waits was not reading a page: none is blamed for it
    Atomics.store(reading, 0, 0);
    giveWay.beforeStep();
    Atomics.store(reading, 0, page);
    try {
      outcomes.push({ ok: true, facts: reader.pageFacts(page - 1, judged) });
    } catch (error) {
      outcomes.push({ ok: false, message: error instanceof Error ? error.message : String(error) });
      if (error instanceof PdfiumAborted || pdfium.isAborted) break;
    }
  }
  return outcomes;
}

function run(task: PdfTask): PdfTaskResult[PdfTask['kind']] {
  switch (task.kind) {
    case 'probe':
      return probe(task.path);
    case 'document':
      return documentAt(task.path).documentFacts(task.judged);
    case 'page':
      giveWay.beforeStep();
      return documentAt(task.path).pageFacts(task.page - 1, task.judged);
    case 'pages':
      return pages(task.path, task.page, task.count, task.judged);
    case 'text':
      giveWay.beforeStep();
      return documentAt(task.path).pageText(task.page - 1);
    case 'thumbnail':
      giveWay.beforeStep();
      return thumbnail(task.path, task.page, task.width);
  }
}

// parsing is batch work: the API's event loop in this process comes first
lowerThreadPriority();

function failureKind(error: unknown, task: PdfTask): TaskFailureKind {
  if (error instanceof PdfOpenError) return error.kind;
  if (error instanceof PdfiumAborted) return 'out_of_memory';
  return task.kind === 'page' || task.kind === 'pages' || task.kind === 'text' || task.kind === 'thumbnail'
    ? 'page_error'
    : 'invalid_pdf';
}

parentPort?.on('message', (request: TaskRequest | ForgetRequest) => {
  if ('forget' in request) {
    if (!pdfium.isAborted) closeDocument(request.forget);
    return;
  }
  const { id, task } = request;
  // a page number left from an earlier task must not name a page of this one
  Atomics.store(reading, 0, 0);
  giveWay.taskStarts();
  let response: TaskResponse;
  try {
    const result = run(task);
    response = {
      id,
      ok: true,
      result,
      recycle: pdfium.isAborted || pdfium.heapBytes > recycleHeapBytes,
      heapBytes: pdfium.heapBytes,
      gaveWayMs: giveWay.waitedInTask,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    response = {
      id,
      ok: false,
      kind: failureKind(error, task),
      message,
      recycle: true,
      heapBytes: pdfium.heapBytes,
      gaveWayMs: giveWay.waitedInTask,
    };
    if (!pdfium.isAborted) response.recycle = pdfium.heapBytes > recycleHeapBytes;
  }
  // pages kept loaded are a cache: a thread whose heap has grown goes without it
  if (!pdfium.isAborted && pdfium.heapBytes > recycleHeapBytes / 2)
    for (const opened of open.values()) opened.reader.releasePages();
  const transfer = response.ok && response.result instanceof Uint8Array ? [response.result.buffer] : [];
  parentPort?.postMessage(response, transfer as ArrayBuffer[]);
});
parentPort?.postMessage({ ready: true });
