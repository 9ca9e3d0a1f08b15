import type { CosFile } from '../../cos/file.js';
import { latin1, type PdfDict } from '../../cos/syntax.js';

/** How far from the end `%%EOF` is looked for. */
const TAIL = 64 * 1024;

/**
 * A trailer's /ID: each item's bytes in hex ('' for an item that is no string); [] when the value is not an
 * array; null when there is no /ID.
 */
export function fileIdentifier(cos: CosFile, trailer: PdfDict): string[] | null {
  if (!trailer.has('ID')) return null;
  const id = cos.resolve(trailer.get('ID'));
  if (!Array.isArray(id)) return [];
  return id.map((item) => {
    const value = cos.resolve(item);
    return value instanceof Uint8Array ? Buffer.from(value).toString('hex') : '';
  });
}

/**
 * The bytes after the file's last `%%EOF`, one end-of-line marker (CR, LF or CR LF) right after it aside;
 * null when the file's last 64 KiB hold no `%%EOF`.
 */
export function tailAfterEof(cos: CosFile): number | null {
  const start = Math.max(0, cos.size - TAIL);
  const bytes = cos.read(start, TAIL);
  const text = latin1(bytes, 0, bytes.length);
  const at = text.lastIndexOf('%%EOF');
  if (at === -1) return null;
  let end = at + 5;
  if (bytes[end] === 0x0d) end++;
  if (bytes[end] === 0x0a) end++;
  return bytes.length - end;
}
