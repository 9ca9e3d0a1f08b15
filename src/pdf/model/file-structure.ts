import { fileHeader } from '../file-header.js';
import type { Builders, ModelNode } from './kinds.js';

/** The file as a whole: its header and what its trailers and cross-reference sections say. */
export interface FileNode extends ModelNode {
  /** Where `%PDF-` is, in the first KiB; -1 when it is not there. */
  headerOffset: number;
  /** What follows `%PDF-` on the header line (`1.7`), or null. */
  version: string | null;
  /** The header line ends with one end-of-line marker (CR, LF or CR LF) and the next line starts at once. */
  singleEol: boolean;
  /** The first four bytes after the `%` of the line after the header, or fewer when the file is shorter. */
  commentBytes: number[];
}

/** The kinds of the file's syntax: the file, its trailers and sections, objects, streams and tokens. */
export interface FileStructureKinds {
  file: FileNode;
}

function fileNode(head: Uint8Array): FileNode {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const at = bytes.indexOf('%PDF-');
  const header = fileHeader(head);
  let end = at < 0 ? 0 : at + 5;
  while (end < head.length && head[end] !== 0x0a && head[end] !== 0x0d) end++;
  let next = end;
  if (head[next] === 0x0d) next++;
  if (head[next] === 0x0a) next++;
  while (at >= 0 && (head[next] === 0x0a || head[next] === 0x0d)) next++;
  const comment = head[next] === 0x25 ? [...head.subarray(next + 1, next + 5)] : [];
  return {
    where: 'the file header',
    headerOffset: at,
    version: header.version,
    singleEol: header.single_eol,
    commentBytes: comment,
  };
}

export const fileStructureBuilders: Builders = {
  document: ({ head }, out) => {
    if (out.wants('file')) out.emit('file', fileNode(head));
  },
};
