/** What admission needs to know of an uploaded PDF. */
export interface ProbedPdf {
  pageCount: number | null;
  pdfVersion: string | null;
  encrypted: boolean;
}

/**
 * Opens an assembled file with the diagnosis's PDF library, off the event loop; throws UnreadablePdfError
 * when the file is not a PDF that opens. The wiring (services.ts) supplies it over the parser threads.
 */
export type PdfProbe = (path: string, tenantId: string) => Promise<ProbedPdf>;

export class UnreadablePdfError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadablePdfError';
  }
}
