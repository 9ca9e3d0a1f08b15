import './skip-jpeg-decoding.js';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { documentFacts, type ProbeFacts, pageFacts, pageText } from './analyse.js';
import { type OpenedDocument, openDocument, PdfOpenError } from './open-document.js';
import type { PdfTask, PdfTaskResult, TaskRequest, TaskResponse } from './tasks.js';

/**
 * A parser thread. It keeps the last few documents open, so the pages of one run that land on this thread
 * share one parse of the xref and page tree.
 */
const OPEN_LIMIT = 2;
const open = new Map<string, Promise<OpenedDocument>>();

function documentAt(path: string): Promise<OpenedDocument> {
  let opened = open.get(path);
  if (!opened) {
    opened = openDocument(path);
    open.set(path, opened);
    opened.catch(() => open.delete(path));
    while (open.size > OPEN_LIMIT) {
      const [oldestPath, oldest] = open.entries().next().value as [string, Promise<OpenedDocument>];
      open.delete(oldestPath);
      oldest.then((d) => d.close()).catch(() => undefined);
    }
  }
  return opened;
}

async function probe(path: string): Promise<ProbeFacts> {
  try {
    const { doc } = await documentAt(path);
    const info = (await doc.getMetadata()).info as unknown as Record<string, unknown>;
    const version = typeof info.PDFFormatVersion === 'string' ? info.PDFFormatVersion : null;
    return { pageCount: doc.numPages, pdfVersion: version, encrypted: Boolean(info.IsEncrypted) };
  } catch (error) {
    if (error instanceof PdfOpenError && error.kind === 'encrypted') {
      return { pageCount: null, pdfVersion: null, encrypted: true };
    }
    throw error;
  }
}

async function run(task: PdfTask): Promise<PdfTaskResult[PdfTask['kind']]> {
  switch (task.kind) {
    case 'probe':
      return probe(task.path);
    case 'document':
      return documentFacts((await documentAt(task.path)).doc);
    case 'page': {
      const { doc } = await documentAt(task.path);
      return pageFacts(await doc.getPage(task.page), doc);
    }
    case 'text':
      return pageText(await (await documentAt(task.path)).doc.getPage(task.page));
  }
}

/**
 * Parsing is batch work: on Linux this thread lowers its own scheduling priority, so that the API's event
 * loop in the same process keeps answering quickly while every parser thread is busy.
 */
function lowerPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId)) setPriority(threadId, 19);
  } catch {
    // not Linux: the thread keeps the process's priority
  }
}
lowerPriority();

/**
 * pdf.js yields to the event loop between slices of work, so this guard gets to run while a page is being
 * parsed: past the limit the thread reports the task and exits; the pool starts a fresh one.
 */
const MEMORY_CHECK_MS = 100;
const { memoryLimitBytes } = workerData as { memoryLimitBytes: number };
let currentTask: number | undefined;
setInterval(() => {
  const heap = v8.getHeapStatistics();
  if (currentTask === undefined || heap.used_heap_size + heap.external_memory <= memoryLimitBytes) return;
  const response: TaskResponse = {
    id: currentTask,
    ok: false,
    kind: 'out_of_memory',
    message: `The parser used more than ${Math.round(memoryLimitBytes / 1048576)} MB`,
  };
  parentPort?.postMessage(response);
  process.exit(1);
}, MEMORY_CHECK_MS).unref();

parentPort?.on('message', async ({ id, task }: TaskRequest) => {
  currentTask = id;
  let response: TaskResponse;
  try {
    response = { id, ok: true, result: await run(task) };
  } catch (error) {
    const kind =
      error instanceof PdfOpenError
        ? error.kind
        : task.kind === 'page' || task.kind === 'text'
          ? 'page_error'
          : 'invalid_pdf';
    const message =
      error instanceof PdfOpenError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    response = { id, ok: false, kind, message };
  }
  currentTask = undefined;
  parentPort?.postMessage(response);
});
