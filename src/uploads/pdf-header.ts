import { Transform, type TransformCallback } from 'node:stream';

/**
 * PDFium, which opens the file at `complete`, looks for `%PDF` at each of the file's first 1,025 offsets:
 * bytes before the header are tolerated, a file without one is no PDF. The window is those offsets and the
 * header's four bytes.
 */
const HEADER = Buffer.from('%PDF');
const LAST_HEADER_OFFSET = 1024;
export const PDF_HEADER_WINDOW = LAST_HEADER_OFFSET + HEADER.length;

export function hasPdfHeader(head: Uint8Array): boolean {
  const at = Buffer.from(head.buffer, head.byteOffset, head.byteLength).indexOf(HEADER);
  return at >= 0 && at <= LAST_HEADER_OFFSET;
}

export const NOT_A_PDF_MESSAGE = `The file is not a PDF: its first ${LAST_HEADER_OFFSET} bytes hold no %PDF header`;

/**
 * Passes the part that holds a file's first bytes through, and fails it at its end when the file cannot be
 * a PDF: a client learns it with its first part, not after sending every part. Only a body of the part's
 * exact size is judged, so a body of the wrong size keeps the answer that says so (the size check comes
 * after, in the blob store). `refused` tells the caller why the stream failed, whatever an engine made of it.
 */
export class PdfHeaderCheck extends Transform {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private bytes = 0;
  refused = false;

  constructor(private readonly partBytes: number) {
    super();
  }

  /** Whether a part of `partBytes` of an upload of `partCount` parts holds the whole header window. */
  static decides(partBytes: number, partCount: number): boolean {
    return partCount === 1 || partBytes >= PDF_HEADER_WINDOW;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.headBytes < PDF_HEADER_WINDOW) {
      const kept = chunk.subarray(0, PDF_HEADER_WINDOW - this.headBytes);
      this.head.push(kept);
      this.headBytes += kept.length;
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback) {
    if (this.bytes === this.partBytes && !hasPdfHeader(Buffer.concat(this.head))) {
      this.refused = true;
      done(new Error(NOT_A_PDF_MESSAGE));
      return;
    }
    done();
  }
}
