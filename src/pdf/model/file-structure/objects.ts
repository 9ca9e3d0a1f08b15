import type { CosFile } from '../../cos/file.js';
import {
  isDict,
  isStream,
  latin1,
  Lexer,
  nameOf,
  type PdfDict,
  PdfName,
  type PdfValue,
  SyntaxFailure,
  type TokenWatcher,
} from '../../cos/syntax.js';
import type { Emitter } from '../node.js';
import type { FileStructureKinds } from './nodes.js';
import type { StreamNode } from './nodes.js';

/** At most this many objects are read: a larger file's syntax is judged on its first ones. */
const MAX_OBJECTS = 200_000;
const WINDOW = 16 * 1024;
const MAX_WINDOW = 1024 * 1024;
const CHUNK = 1024 * 1024;
/** How far past a stream's data start `endstream` is looked for when /Length does not lead to it. */
const MAX_ENDSTREAM_SEARCH = 32 * 1024 * 1024;
/** The most bytes all such searches of one file read. */
const MAX_SEARCH_TOTAL = 256 * 1024 * 1024;
const MAX_WALK_DEPTH = 32;

const isEol = (byte: number | undefined) => byte === 10 || byte === 13;
const text = (bytes: Uint8Array, start: number, end: number) => {
  const to = Math.min(end, bytes.length);
  return latin1(bytes, Math.min(Math.max(0, start), to), to);
};

/**
 * The file's bytes in chunks of a MiB read ahead: objects are visited in the order of their offsets, so each
 * part of the file is read about once, not once per object.
 */
class Reader {
  private start = 0;
  private chunk: Uint8Array = new Uint8Array(0);

  constructor(private readonly cos: CosFile) {}

  at(offset: number, length: number): Uint8Array {
    const end = Math.min(offset + length, this.cos.size);
    if (offset < this.start || end > this.start + this.chunk.length) {
      this.start = Math.max(0, offset - 1);
      this.chunk = this.cos.read(this.start, Math.max(CHUNK, end - this.start));
    }
    return this.chunk.subarray(offset - this.start, end - this.start);
  }
}

type Pending = { [K in keyof FileStructureKinds]: [K, FileStructureKinds[K]] }[keyof FileStructureKinds];

/** The token kinds, held until the object they are in has been read for good (a window may be widened). */
class TokenBuffer {
  private held: Pending[] = [];
  private hex: { digits: number; onlyDigits: boolean } | undefined;
  readonly watcher: TokenWatcher | undefined;
  where = '';

  constructor(private readonly out: Emitter<FileStructureKinds>) {
    const wants = {
      number: out.wants('number'),
      string: out.wants('string'),
      name: out.wants('name'),
      array: out.wants('array'),
      dictionary: out.wants('dictionary'),
    };
    if (!Object.values(wants).some(Boolean)) return;
    this.watcher = {
      number: (word, value) => {
        if (wants.number) this.held.push(['number', { where: this.where, value, real: word.includes('.') }]);
      },
      hexString: (digits, clean) => {
        // a clean one is told again as a string; one with a stray byte ends there
        if (clean) this.hex = { digits, onlyDigits: true };
        else if (wants.string)
          this.held.push([
            'string',
            {
              where: this.where,
              bytes: Math.ceil(digits / 2),
              hex: true,
              hexDigits: digits,
              hexOnlyDigits: false,
            },
          ]);
      },
      string: (bytes) => {
        const hex = this.hex;
        this.hex = undefined;
        if (wants.string)
          this.held.push([
            'string',
            {
              where: this.where,
              bytes,
              hex: hex !== undefined,
              hexDigits: hex?.digits ?? 0,
              hexOnlyDigits: hex?.onlyDigits ?? true,
            },
          ]);
      },
      name: (bytes) => {
        if (wants.name) this.held.push(['name', { where: this.where, bytes }]);
      },
      array: (items) => {
        if (wants.array) this.held.push(['array', { where: this.where, items }]);
      },
      dictionary: (entries) => {
        if (wants.dictionary) this.held.push(['dictionary', { where: this.where, entries }]);
      },
    };
  }

  drop(): void {
    this.held = [];
    this.hex = undefined;
  }

  flush(): void {
    for (const [kind, node] of this.held) this.out.emit(kind, node as never);
    this.drop();
  }
}

/** Bytes a file's `endstream` searches have read, against MAX_SEARCH_TOTAL. */
interface Budget {
  searched: number;
}

/**
 * One reading of the file's objects, in the order of their offsets: each indirect object's frame, each
 * stream's frame and filters, every token (numbers, strings, names, arrays, dictionaries) in objects and in
 * object streams, and the names that stand for text.
 */
export function scanObjects(cos: CosFile, out: Emitter<FileStructureKinds>): void {
  const tokens = new TokenBuffer(out);
  const file = new Reader(cos);
  const budget: Budget = { searched: 0 };
  const direct: [number, number][] = [];
  const containers = new Set<number>();
  let read = 0;
  for (const [num, entry] of cos.listed()) {
    if (++read > MAX_OBJECTS) break;
    if ('offset' in entry) direct.push([num, entry.offset]);
    else containers.add(entry.container);
  }
  direct.sort((a, b) => a[1] - b[1]);
  // an offset is read once, however many entries name it (a hostile xref can name one offset 200,000 times)
  const offsets = new Set<number>();
  for (const [num, offset] of direct) {
    if (offsets.has(offset)) continue;
    offsets.add(offset);
    try {
      directObject(cos, file, num, offset, tokens, out, budget);
    } catch (error) {
      if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
    } finally {
      tokens.flush();
    }
  }
  for (const container of containers) compressedObjects(cos, container, tokens, out);
}

/** The objects of one object stream: their tokens and text names (they have no frame of their own). */
function compressedObjects(
  cos: CosFile,
  container: number,
  tokens: TokenBuffer,
  out: Emitter<FileStructureKinds>,
): void {
  const stream = cos.objectStream(container);
  if (!stream) return;
  const seen = new Set<number>();
  for (const [num, at] of stream.offsets) {
    if (seen.has(at)) continue;
    seen.add(at);
    tokens.where = `object ${num}`;
    try {
      textNames(cos, new Lexer(stream.bytes, at, tokens.watcher).value(), tokens.where, out);
    } catch (error) {
      if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
    } finally {
      tokens.flush();
    }
  }
}

const HEADER = /^(\d+)([ \t\r\n\f\0]+)(\d+)([ \t\r\n\f\0]+)obj/;

function directObject(
  cos: CosFile,
  file: Reader,
  num: number,
  offset: number,
  tokens: TokenBuffer,
  out: Emitter<FileStructureKinds>,
  budget: Budget,
): void {
  const where = `object ${num}`;
  tokens.where = where;
  for (let window = WINDOW; window <= MAX_WINDOW; window *= 8) {
    const bytes = file.at(offset, window);
    const header = HEADER.exec(text(bytes, 0, 64));
    if (!header) return;
    const lexer = new Lexer(bytes, header[0].length, tokens.watcher);
    let value: PdfValue;
    try {
      value = lexer.value();
    } catch (error) {
      if (!(error instanceof SyntaxFailure)) throw error;
      // a wider window reads the object again; the last one keeps what it met before the failure
      if (bytes.length === window && window < MAX_WINDOW) {
        tokens.drop();
        continue;
      }
      return;
    }
    const frame = {
      where,
      num,
      afterNumber: header[2]!,
      afterGeneration: header[4]!,
      eolBeforeNumber: offset === 0 || isEol(file.at(offset - 1, 1)[0]),
      eolAfterObj: isEol(bytes[header[0].length]),
    };
    textNames(cos, value, where, out);
    let endobj: { before: boolean; after: boolean } | null;
    if (isStream(value)) {
      const facts = streamFacts(cos, file, offset, bytes, value.stream.dict, value.stream.dataStart, budget);
      if (out.wants('stream')) out.emit('stream', { where, num, ...facts.node });
      if (out.wants('filter')) filters(cos, value.stream.dict, where, out);
      endobj = facts.endstream === undefined ? null : endobjAt(file, facts.endstream + 9);
    } else endobj = endobjAt(file, offset + lexer.pos);
    if (out.wants('indirect_object'))
      out.emit('indirect_object', {
        ...frame,
        eolBeforeEndobj: endobj?.before ?? null,
        eolAfterEndobj: endobj?.after ?? null,
      });
    return;
  }
}

/** `endobj` after white space from `at`: whether an end-of-line marker is right before and after it. */
function endobjAt(file: Reader, at: number): { before: boolean; after: boolean } | null {
  const bytes = file.at(at, 72);
  const found = /^[\0\t\n\f\r ]*endobj/.exec(text(bytes, 0, 64));
  if (!found) return null;
  const end = found[0].length;
  const next = bytes[end];
  return { before: isEol(bytes[end - 7]), after: next === undefined || isEol(next) };
}

/** A stream's frame: the keyword's end of line, /Length against where `endstream` is. */
function streamFacts(
  cos: CosFile,
  file: Reader,
  offset: number,
  bytes: Uint8Array,
  dict: PdfDict,
  dataStart: number,
  budget: Budget,
): { node: Omit<StreamNode, 'where' | 'num'>; endstream: number | undefined } {
  const keyword = text(bytes, dataStart - 8, dataStart);
  const afterStreamKeyword = keyword.endsWith('stream\r\n')
    ? 'CRLF'
    : keyword.endsWith('stream\n')
      ? 'LF'
      : keyword.endsWith('stream\r')
        ? 'CR'
        : 'none';
  const length = cos.get(dict, 'Length');
  const lengthDeclared =
    typeof length === 'number' && Number.isInteger(length) && length >= 0 ? length : undefined;
  const start = offset + dataStart;
  let end: { at: number; data: number; eol: boolean } | undefined;
  if (lengthDeclared !== undefined && start + lengthDeclared <= cos.size)
    end = endstreamAt(file, start, start + lengthDeclared);
  end ??= searchEndstream(cos, start, budget);
  return {
    node: {
      keys: [...dict.keys()],
      lengthDeclared,
      lengthActual: end?.data,
      afterStreamKeyword,
      eolBeforeEndstream: end?.eol,
    },
    endstream: end?.at,
  };
}

/** The data's length and end of line when `endstream` is at `at`, or after an end-of-line marker from it. */
function endstreamAt(
  file: Reader,
  start: number,
  at: number,
): { at: number; data: number; eol: boolean } | undefined {
  const after = text(file.at(at, 11), 0, 11);
  const eol = /^(\r\n|\r|\n)endstream/.exec(after);
  if (eol) return { at: at + eol[1]!.length, data: at - start, eol: true };
  if (!after.startsWith('endstream')) return undefined;
  return dataBefore(file, start, at);
}

/** Where the data ends when `endstream` is at `at`: before the end-of-line marker that precedes it, if any. */
function dataBefore(file: Reader, start: number, at: number): { at: number; data: number; eol: boolean } {
  const before = at - start >= 2 ? file.at(at - 2, 2) : file.at(at - 1, 1);
  const last = before[before.length - 1];
  if (at > start && last === 10) {
    const crlf = at - start >= 2 && before[0] === 13;
    return { at, data: at - start - (crlf ? 2 : 1), eol: true };
  }
  if (at > start && last === 13) return { at, data: at - start - 1, eol: true };
  return { at, data: at - start, eol: false };
}

/** The first `endstream` from the data's start, within MAX_ENDSTREAM_SEARCH and the file's budget. */
function searchEndstream(
  cos: CosFile,
  start: number,
  budget: Budget,
): { at: number; data: number; eol: boolean } | undefined {
  const step = 64 * 1024;
  for (let at = start; at < cos.size && at - start < MAX_ENDSTREAM_SEARCH; at += step) {
    if (budget.searched > MAX_SEARCH_TOTAL) return undefined;
    const chunk = cos.read(at, step + 9);
    budget.searched += chunk.length;
    const found = latin1(chunk, 0, chunk.length).indexOf('endstream');
    if (found !== -1 && found < step + 9) {
      const file = new Reader(cos);
      return dataBefore(file, start, at + found);
    }
  }
  return undefined;
}

/** Each filter of /Filter, with its decode parameters' /Name. */
function filters(cos: CosFile, dict: PdfDict, where: string, out: Emitter<FileStructureKinds>): void {
  const filter = cos.get(dict, 'Filter');
  const list = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
  const parms = cos.resolve(dict.get('DecodeParms'));
  for (const [i, item] of list.entries()) {
    const name = nameOf(cos.resolve(item));
    if (name === undefined) continue;
    const own = cos.resolve(Array.isArray(parms) ? parms[i] : i === 0 ? parms : undefined);
    out.emit('filter', { where, name, parmsName: isDict(own) ? nameOf(cos.get(own, 'Name')) : undefined });
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function textName(
  name: string,
  role: FileStructureKinds['text_name']['role'],
  where: string,
  out: Emitter<FileStructureKinds>,
): void {
  let validUtf8 = true;
  try {
    utf8.decode(Buffer.from(name, 'latin1'));
  } catch {
    validUtf8 = false;
  }
  out.emit('text_name', { where, role, name, validUtf8 });
}

/**
 * The names in an object that stand for text: a font's /BaseFont, a font descriptor's /FontName, a
 * structure element's /S, the colorants of Separation and DeviceN colour spaces written in it.
 */
function textNames(
  cos: CosFile,
  value: PdfValue,
  where: string,
  out: Emitter<FileStructureKinds>,
  depth = 0,
): void {
  if (depth > MAX_WALK_DEPTH || !out.wants('text_name')) return;
  const dict = isStream(value) ? value.stream.dict : isDict(value) ? value : undefined;
  if (dict) {
    const type = nameOf(dict.get('Type'));
    const base = nameOf(dict.get('BaseFont'));
    if (type === 'Font' && base !== undefined) textName(base, 'font name', where, out);
    const fontName = nameOf(dict.get('FontName'));
    if (type === 'FontDescriptor' && fontName !== undefined) textName(fontName, 'font name', where, out);
    const structure = nameOf(dict.get('S'));
    if (
      structure !== undefined &&
      // /Type is optional in a structure element; its parent (/P) is not
      (type === 'StructElem' || (type === undefined && dict.has('P') && !dict.has('Subtype')))
    )
      textName(structure, 'structure type', where, out);
    for (const item of dict.values())
      if (item instanceof Map || Array.isArray(item)) textNames(cos, item, where, out, depth + 1);
    return;
  }
  if (!Array.isArray(value)) return;
  const family = nameOf(value[0]);
  if (family === 'Separation' && value[1] instanceof PdfName) textName(value[1].name, 'colorant', where, out);
  if (family === 'DeviceN' && Array.isArray(value[1]))
    for (const colorant of value[1])
      if (colorant instanceof PdfName) textName(colorant.name, 'colorant', where, out);
  for (const item of value)
    if (item instanceof Map || Array.isArray(item)) textNames(cos, item, where, out, depth + 1);
}
