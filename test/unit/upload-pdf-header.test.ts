/**
 * The part that holds a file's first bytes is judged as PDFium judges the file at `complete`: `%PDF` at one
 * of the first 1,025 offsets, or no PDF. A body of the wrong size is left to the size check.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { hasPdfHeader, PDF_HEADER_WINDOW, PdfHeaderCheck } from '../../src/uploads/pdf-header.js';

/** Sends `chunks` through a check for a part of `partBytes`; says whether it refused. */
async function judged(chunks: Buffer[], partBytes = Buffer.concat(chunks).length) {
  const check = new PdfHeaderCheck(partBytes);
  let passed = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      passed += chunk.length;
      done();
    },
  });
  const outcome = await pipeline(Readable.from(chunks), check, sink).then(
    () => 'accepted',
    (error: Error) => error.message,
  );
  return { outcome, refused: check.refused, passed };
}

describe('the PDF header of the first part', () => {
  it('a PDF passes whole, its header split across chunks', async () => {
    const part = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 1)]);
    const { outcome, passed } = await judged([part.subarray(0, 2), part.subarray(2)]);
    expect(outcome).toBe('accepted');
    expect(passed).toBe(part.length);
  });

  it('bytes before the header are tolerated as far as PDFium tolerates them', () => {
    expect(hasPdfHeader(Buffer.concat([Buffer.alloc(1024, 32), Buffer.from('%PDF-1.4')]))).toBe(true);
    expect(hasPdfHeader(Buffer.concat([Buffer.alloc(1025, 32), Buffer.from('%PDF-1.4')]))).toBe(false);
  });

  it('text, zeros or an image are refused at the end of the part, saying why', async () => {
    for (const part of [Buffer.from('hello, this is text named .pdf\n'.repeat(100)), Buffer.alloc(4096)]) {
      const { outcome, refused } = await judged([part]);
      expect(refused).toBe(true);
      expect(outcome).toMatch(/not a PDF/);
    }
  });

  it('a body shorter than the part is not judged: the size check answers it', async () => {
    const { outcome, refused } = await judged([Buffer.alloc(2000)], 4096);
    expect(outcome).toBe('accepted');
    expect(refused).toBe(false);
  });

  it('a first part smaller than the window decides only when it is the whole file', () => {
    expect(PdfHeaderCheck.decides(PDF_HEADER_WINDOW, 3)).toBe(true);
    expect(PdfHeaderCheck.decides(PDF_HEADER_WINDOW - 1, 3)).toBe(false);
    expect(PdfHeaderCheck.decides(10, 1)).toBe(true);
  });
});
