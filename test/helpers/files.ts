import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { expect } from 'vitest';
import type { Harness } from './harness.js';

export const PDF_DIR = path.resolve(import.meta.dirname, '../fixtures/pdfs');
export const pdfPath = (name: string) => path.join(PDF_DIR, name);
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface UploadOptions {
  token?: string;
  fileName?: string;
  declareSha?: boolean;
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
  for (let part = 1; part <= part_count; part++) {
    const chunk = bytes.subarray((part - 1) * part_size, part * part_size);
    const sent = await h.request('PUT', `/api/open/uploads/${upload_id}/parts/${part}`, {
      token: options.token,
      body: chunk,
      contentType: 'application/octet-stream',
    });
    expect(sent.status, sent.text).toBe(200);
  }
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
 * time grow with its pages (`useObjectStreams: false` keeps it from compressing to nothing).
 */
export async function textPdf(pages: number, lines = 30): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = pdf.addPage([595, 842]);
    for (let line = 0; line < lines; line++) {
      page.drawText(`Page ${i}, line ${line} of a long document`, {
        x: 40,
        y: 800 - line * 18,
        font,
        size: 10,
      });
    }
  }
  return pdf.save({ useObjectStreams: false });
}
