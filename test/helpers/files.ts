import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export const PDF_DIR = path.resolve(import.meta.dirname, '../fixtures/pdfs');
export const pdfPath = (name: string) => path.join(PDF_DIR, name);
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface UploadOptions {
  token?: string;
  fileName?: string;
  declareSha?: boolean;
  /** Parts in flight at once (default 1; keep it under the server's MAX_CONCURRENT_PARTS_PER_TENANT, 8). */
  parallel?: number;
}

/** Start, send every part, return the upload (not completed). */
export async function sendUpload(h: Harness, bytes: Uint8Array, options: UploadOptions = {}) {
  const started = await h.request('POST', '/api/open/uploads', {
    token: options.token,
    json: {
      file_name: options.fileName ?? 'doc.pdf',
      size_bytes: bytes.length,
      ...(options.declareSha ? { sha256: sha256(bytes) } : {}),
    },
  });
  expect(started.status, started.text).toBe(201);
  const { upload_id, part_size, part_count } = started.body.data;
  let next = 1;
  const sender = async () => {
    for (let part = next++; part <= part_count; part = next++) {
      const chunk = bytes.subarray((part - 1) * part_size, part * part_size);
      const sent = await h.request('PUT', `/api/open/uploads/${upload_id}/parts/${part}`, {
        token: options.token,
        body: chunk,
        contentType: 'application/octet-stream',
      });
      expect(sent.status, sent.text).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: options.parallel ?? 1 }, sender));
  return started.body.data as { upload_id: string; part_size: number; part_count: number };
}

/** Upload and complete; returns the file id. */
export async function uploadPdf(h: Harness, bytes: Uint8Array, options: UploadOptions = {}): Promise<string> {
  const { upload_id } = await sendUpload(h, bytes, options);
  const done = await h.request('POST', '/api/open/uploads/complete', {
    token: options.token,
    json: { upload_id },
  });
  expect(done.status, done.text).toBe(200);
  return done.body.data.file_id as string;
}

export const readPdf = (name: string) => new Uint8Array(readFileSync(pdfPath(name)));

/** Polls a run until it has finished. */
export async function waitForRun(h: Harness, runId: string, token?: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await h.request('GET', `/api/open/runs/${runId}`, { token });
    expect(res.status).toBe(200);
    if (['succeeded', 'failed', 'cancelled'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${res.body.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A PDF of `pages` A4 pages, each with `lines` lines of Helvetica text: a document whose size and parsing
 * time grow with its pages. Written object by object, uncompressed: pdf-lib takes about 5 s for the 3,000
 * pages the crash suites use, this a few milliseconds.
 */
export async function textPdf(pages: number, lines = 30): Promise<Uint8Array> {
  const parts: string[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (text: string) => {
    parts.push(text);
    length += text.length; // every character is one latin1 byte
  };
  const object = (n: number, body: string) => {
    offsets[n] = length;
    write(`${n} 0 obj\n${body}\nendobj\n`);
  };
  // 1 catalog, 2 page tree, 3 font; page i is object 2 + 2i with its content stream after it
  const pageObject = (i: number) => 2 + 2 * i;
  write('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: pages }, (_, i) => `${pageObject(i + 1)} 0 R`).join(' ');
  object(2, `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (let i = 1; i <= pages; i++) {
    let content = 'BT\n/F1 10 Tf\n';
    for (let line = 0; line < lines; line++) {
      content += `1 0 0 1 40 ${800 - line * 18} Tm (Page ${i}, line ${line} of a long document) Tj\n`;
    }
    content += 'ET\n';
    object(
      pageObject(i),
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject(i) + 1} 0 R >>`,
    );
    object(pageObject(i) + 1, `<< /Length ${content.length} >>\nstream\n${content}endstream`);
  }
  const size = pageObject(pages) + 2;
  const xref = length;
  write(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let n = 1; n < size; n++) write(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.from(parts.join(''), 'latin1'));
}
