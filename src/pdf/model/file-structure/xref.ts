import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, latin1, Lexer, type PdfDict, SyntaxFailure } from '../../cos/syntax.js';

/** One cross-reference section as written: a table (with its trailer) or a stream (its dictionary). */
export interface XrefSection {
  offset: number;
  stream: boolean;
  trailer: PdfDict;
  /** A table's white space between `xref` and its first subsection header. */
  afterKeyword: string;
  /** A table's subsection headers: the white space between the first object number and the count. */
  headerSeparators: string[];
}

const MAX_SECTIONS = 64;
const MAX_HEADERS = 16;
const TABLE_WINDOW = 64 * 1024;
const MAX_TABLE_WINDOW = 32 * 1024 * 1024;
/** The most bytes all sections of one file are read in, windows widened included. */
const MAX_READ_TOTAL = 64 * 1024 * 1024;
const HEAD_WINDOW = 16 * 1024;
const WHITE = /^[\0\t\n\f\r ]*/;

/**
 * The cross-reference sections the file's last `startxref` leads to, through /Prev and a hybrid file's
 * /XRefStm, each read once, at most MAX_SECTIONS. A section that cannot be read ends its chain (the objects
 * are still read by CosFile, which rebuilds a broken xref).
 */
export function readSections(cos: CosFile): XrefSection[] {
  const tail = latin1(cos.read(Math.max(0, cos.size - 2048), 2048), 0, Math.min(2048, cos.size));
  const found = [...tail.matchAll(/startxref\s+(\d+)/g)].at(-1);
  const sections: XrefSection[] = [];
  const seen = new Set<number>();
  const pending: number[] = found ? [Number(found[1])] : [];
  const budget = { read: 0 };
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    if (seen.has(next) || seen.size >= MAX_SECTIONS || next >= cos.size) continue;
    seen.add(next);
    const section = readSection(cos, next, budget);
    if (!section) continue;
    sections.push(section);
    const hybrid = section.trailer.get('XRefStm');
    if (typeof hybrid === 'number') pending.unshift(hybrid);
    const prev = section.trailer.get('Prev');
    if (typeof prev === 'number') pending.push(prev);
  }
  return sections;
}

function readSection(cos: CosFile, offset: number, budget: { read: number }): XrefSection | undefined {
  try {
    return latin1(cos.read(offset, 4), 0, 4) === 'xref'
      ? readTable(cos, offset, budget)
      : readStream(cos, offset);
  } catch (error) {
    if (error instanceof SyntaxFailure || error instanceof RangeError) return undefined;
    throw error;
  }
}

function readStream(cos: CosFile, offset: number): XrefSection | undefined {
  const lexer = new Lexer(cos.read(offset, HEAD_WINDOW));
  if (!/^\d+$/.test(lexer.word()) || !/^\d+$/.test(lexer.word()) || lexer.word() !== 'obj') return undefined;
  const value = lexer.value();
  if (!isStream(value)) return undefined;
  return { offset, stream: true, trailer: value.stream.dict, afterKeyword: '', headerSeparators: [] };
}

/** A table: `xref`, subsections (`first count` and 20-byte entries), `trailer` and its dictionary. */
function readTable(cos: CosFile, offset: number, budget: { read: number }): XrefSection | undefined {
  for (let window = TABLE_WINDOW; ; window *= 4) {
    if (budget.read > MAX_READ_TOTAL) return undefined;
    const bytes = cos.read(offset, window);
    budget.read += bytes.length;
    try {
      return table(bytes, offset);
    } catch (error) {
      if (!(error instanceof SyntaxFailure) || bytes.length < window || window >= MAX_TABLE_WINDOW)
        throw error;
    }
  }
}

function table(bytes: Uint8Array, offset: number): XrefSection {
  const lexer = new Lexer(bytes, 4);
  const afterKeyword = WHITE.exec(latin1(bytes, 4, Math.min(bytes.length, 4 + 64)))![0];
  const headerSeparators: string[] = [];
  for (;;) {
    lexer.skipSpace();
    const word = lexer.word();
    if (word === 'trailer') {
      const trailer = lexer.value();
      if (!isDict(trailer)) throw new SyntaxFailure('no trailer');
      return { offset, stream: false, trailer, afterKeyword, headerSeparators };
    }
    const firstEnd = lexer.pos;
    lexer.skipSpace();
    const separator = latin1(bytes, firstEnd, lexer.pos);
    const count = Number(lexer.word());
    if (word === '' || !/^\d+$/.test(word) || !Number.isInteger(count) || count < 0)
      throw new SyntaxFailure('no subsection header');
    if (headerSeparators.length < MAX_HEADERS) headerSeparators.push(separator);
    for (let i = 0; i < count; i++) {
      lexer.word();
      lexer.word();
      const kind = lexer.word();
      if (kind !== 'n' && kind !== 'f') throw new SyntaxFailure('no entry');
    }
  }
}
