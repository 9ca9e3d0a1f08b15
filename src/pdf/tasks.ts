import type { DocumentFacts, PageFacts, ProbeFacts } from './facts.js';

/** Work one parser thread does; each is bounded in time and memory by the pool. */
export type PdfTask =
  | { kind: 'probe'; path: string }
  /**
   * `judged`: the objects are also judged by the thread's judges, by the rule set of that name (a profile
   * reads them; the name means nothing here).
   */
  | { kind: 'document'; path: string; judged?: string }
  | { kind: 'page'; path: string; page: number; judged?: string }
  /** `count` pages from `page` on, each read as a `page` task reads it; a page that fails fails alone. */
  | { kind: 'pages'; path: string; page: number; count: number; judged?: string }
  | { kind: 'text'; path: string; page: number }
  | { kind: 'thumbnail'; path: string; page: number; width: number };

export interface PdfTaskResult {
  probe: ProbeFacts;
  document: DocumentFacts;
  page: PageFacts;
  pages: PageOutcome[];
  text: string;
  /** A PNG image. */
  thumbnail: Uint8Array;
}

/** One page of a `pages` task: its facts, or why it could not be read. */
export type PageOutcome = { ok: true; facts: PageFacts } | { ok: false; message: string };

export type TaskFailureKind =
  'invalid_pdf' | 'encrypted' | 'timeout' | 'out_of_memory' | 'crashed' | 'page_error';

export interface TaskRequest {
  id: number;
  task: PdfTask;
}

/** Tells a thread that a file's run has ended: it closes the document (and the pages it kept loaded). */
export interface ForgetRequest {
  forget: string;
}

/**
 * Every answer carries the thread's PDFium heap size after the task (wasm memory: it only grows), and how
 * long the thread waited in the task for requests to stop arriving (`gaveWayMs`, src/threads/give-way.ts).
 */
export type TaskResponse =
  | {
      id: number;
      ok: true;
      result: PdfTaskResult[PdfTask['kind']];
      recycle: boolean;
      heapBytes: number;
      gaveWayMs: number;
    }
  | {
      id: number;
      ok: false;
      kind: TaskFailureKind;
      message: string;
      recycle: boolean;
      heapBytes: number;
      gaveWayMs: number;
    };
