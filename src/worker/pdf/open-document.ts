import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { getDocument, PDFDataRangeTransport, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Bytes read per range request: the parser asks for what it needs, the file is never read whole. */
const RANGE_CHUNK = 64 * 1024;

export class PdfOpenError extends Error {
  constructor(
    readonly kind: 'invalid_pdf' | 'encrypted',
    message: string,
  ) {
    super(message);
  }
}

export interface OpenedDocument {
  doc: PDFDocumentProxy;
  close(): Promise<void>;
}

/**
 * Opens a PDF from disk through pdf.js's range transport, so a 2 GB scan costs the parser only the ranges
 * it reads (xref, page tree, the page at hand), not the whole file in memory.
 */
export async function openDocument(filePath: string): Promise<OpenedDocument> {
  const fd = openSync(filePath, 'r');
  const length = fstatSync(fd).size;
  if (length === 0) {
    closeSync(fd);
    throw new PdfOpenError('invalid_pdf', 'The file is empty');
  }
  const read = (begin: number, end: number) => {
    const chunk = new Uint8Array(Math.max(0, Math.min(end, length) - begin));
    readSync(fd, chunk, 0, chunk.length, begin);
    return chunk;
  };
  const transport = new PDFDataRangeTransport(length, read(0, Math.min(length, RANGE_CHUNK)));
  transport.requestDataRange = (begin: number, end: number) => {
    // answered asynchronously, as a network transport would be
    setImmediate(() => transport.onDataRange(begin, read(begin, end)));
  };
  const task = getDocument({
    range: transport,
    rangeChunkSize: RANGE_CHUNK,
    disableAutoFetch: true,
    disableStream: true,
    disableFontFace: true,
    fontExtraProperties: true,
    isEvalSupported: false,
    // JPEGs go to the ImageDecoder of the thread (see skip-jpeg-decoding.ts) instead of the JS decoder
    isImageDecoderSupported: typeof (globalThis as { ImageDecoder?: unknown }).ImageDecoder !== 'undefined',
    useSystemFonts: false,
    verbosity: 0,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    closeSync(fd);
    await task.destroy().catch(() => undefined);
    const name = (error as Error).name;
    if (name === 'PasswordException')
      throw new PdfOpenError('encrypted', 'The PDF is encrypted with a password');
    throw new PdfOpenError('invalid_pdf', `Not a PDF that opens: ${(error as Error).message}`);
  }
  return {
    doc,
    async close() {
      await doc.destroy().catch(() => undefined);
      closeSync(fd);
    },
  };
}
