import { parentPort } from 'node:worker_threads';
import { documentFacts, pageFacts, pageText, type ProbeFacts } from './analyse.js';
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

parentPort?.on('message', async ({ id, task }: TaskRequest) => {
  let response: TaskResponse;
  try {
    response = { id, ok: true, result: await run(task) };
  } catch (error) {
    const kind = error instanceof PdfOpenError ? error.kind : task.kind === 'page' || task.kind === 'text' ? 'page_error' : 'invalid_pdf';
    const message = error instanceof PdfOpenError ? error.message : `${(error as Error).name}: ${(error as Error).message}`;
    response = { id, ok: false, kind, message };
  }
  parentPort?.postMessage(response);
});
