import { fileHeader } from '../file-header.js';
import type { Builders, DocumentSource, Emitter } from './node.js';
import type { FileNode, FileStructureKinds } from './file-structure/nodes.js';
import { scanObjects } from './file-structure/objects.js';
import { contentSyntax } from './file-structure/content.js';
import { readSections, type XrefSection } from './file-structure/xref.js';
import { fileIdentifier, tailAfterEof } from './file-structure/trailer.js';
import { emitCatalogKinds, emitPageFileSpecifications } from './file-structure/catalog.js';
import { SyntaxFailure } from '../cos/syntax.js';

export type * from './file-structure/nodes.js';
export type {
  BooleanEntry,
  CatalogNode,
  EmbeddedFileSpecificationNode,
  EncryptionNode,
  XfaFormNode,
} from './file-structure/catalog.js';

function headerFacts(
  head: Uint8Array,
): Pick<FileNode, 'headerOffset' | 'version' | 'singleEol' | 'commentBytes'> {
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
    headerOffset: at,
    version: header.version,
    singleEol: header.single_eol,
    commentBytes: comment,
  };
}

function fileNode(source: DocumentSource, sections: XrefSection[]): FileNode {
  const { cos } = source;
  // the trailer last in the file; a linearized file's first-page trailer is its first section's
  const byOffset = [...sections].sort((a, b) => a.offset - b.offset);
  const last = byOffset.at(-1)?.trailer ?? cos.trailer;
  let indirectObjects = 0;
  let first: { num: number; offset: number } | undefined;
  for (const [num, entry] of cos.listed()) {
    indirectObjects++;
    if ('offset' in entry && (!first || entry.offset < first.offset)) first = { num, offset: entry.offset };
  }
  const linearized = isLinearized(cos, first);
  return {
    where: 'the file',
    ...headerFacts(source.head),
    bytesAfterEof: tailAfterEof(cos),
    linearized,
    lastTrailerId: fileIdentifier(cos, last),
    firstPageTrailerId: linearized && byOffset[0] ? fileIdentifier(cos, byOffset[0].trailer) : null,
    xrefStreams: sections.filter((s) => s.stream).length,
    indirectObjects,
  };
}

/** The file's first object is a linearization dictionary (ISO 32000-1 F.2) that still fits the file. */
function isLinearized(
  cos: DocumentSource['cos'],
  first: { num: number; offset: number } | undefined,
): boolean {
  if (!first || first.offset > 1024) return false;
  const value = cos.object(first.num);
  if (!(value instanceof Map) || !value.has('Linearized')) return false;
  const length = cos.get(value, 'L');
  return typeof length !== 'number' || length === cos.size;
}

function emitSections(
  cos: DocumentSource['cos'],
  sections: XrefSection[],
  out: Emitter<FileStructureKinds>,
): void {
  // a file whose cross-reference could not be followed: the trailer the reader found, rebuilding it
  if (sections.length === 0 && out.wants('trailer'))
    out.emit('trailer', { where: 'the trailer', keys: [...cos.trailer.keys()] });
  for (const section of sections) {
    const where = section.stream
      ? `the cross-reference stream at byte ${section.offset}`
      : `the trailer at byte ${section.offset}`;
    if (out.wants('trailer')) out.emit('trailer', { where, keys: [...section.trailer.keys()] });
    if (!section.stream && out.wants('xref_section'))
      out.emit('xref_section', {
        where: `the cross-reference table at byte ${section.offset}`,
        offset: section.offset,
        afterKeyword: section.afterKeyword,
        headerSeparators: section.headerSeparators,
      });
  }
}

/** The kinds the object scan emits. */
const OBJECT_KINDS = [
  ...['indirect_object', 'stream', 'filter', 'text_name'],
  ...['number', 'string', 'name', 'array', 'dictionary'],
] as const satisfies readonly (keyof FileStructureKinds)[];

/** Runs `read`; one that an unreadable object stops leaves the other readings of the family to run. */
function apart(read: () => void): void {
  try {
    read();
  } catch (error) {
    if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
  }
}

export const fileStructureBuilders: Builders<FileStructureKinds> = {
  document: (source, out) => {
    apart(() => emitCatalogKinds(source.cos, out));
    const sections = readSections(source.cos);
    if (out.wants('file')) out.emit('file', fileNode(source, sections));
    emitSections(source.cos, sections, out);
    // every object read token by token: only for the rules that judge objects' syntax
    if (OBJECT_KINDS.some((kind) => out.wants(kind))) scanObjects(source.cos, out);
  },
  page: (source, out) => {
    apart(() => emitPageFileSpecifications(source, out));
    contentSyntax(source, out);
  },
};
