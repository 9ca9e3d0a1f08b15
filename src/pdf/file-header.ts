import type { Schemas } from '../contract/schemas.js';

export type FileHeader = NonNullable<Schemas['PreflightReport']['document']['file_header']>;

const PREFIX = '%PDF-';
const isEol = (byte: number | undefined) => byte === 0x0a || byte === 0x0d;

/**
 * The file header as ISO 19005 speaks of it (6.1.2 in both parts): `%PDF-` at byte 0, the version after it,
 * the end of that line, and the comment line that should follow it at once (`%` and four bytes above 127,
 * which tell a transfer program the file is binary). `head` is the file's first bytes.
 */
export function fileHeader(head: Uint8Array): FileHeader {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const at = bytes.indexOf(PREFIX);
  if (at < 0) return { at_start: false, version: null, single_eol: false, binary_comment: false };
  const from = at + PREFIX.length;
  let end = from;
  while (end < head.length && !isEol(head[end])) end++;
  const version = bytes.toString('latin1', from, Math.min(end, from + 16));
  // one EOL marker: CR, LF or CR LF
  let next = end;
  if (head[next] === 0x0d) next++;
  if (head[next] === 0x0a) next++;
  const comment = head.subarray(next, next + 5);
  return {
    at_start: at === 0,
    version,
    single_eol: next > end && !isEol(head[next]),
    binary_comment:
      comment.length === 5 && comment[0] === 0x25 && [...comment.subarray(1)].every((b) => b > 127),
  };
}
