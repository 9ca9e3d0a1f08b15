import { isDict, isStream, Lexer, nameOf, type PdfDict, PdfRef, type PdfValue } from '../cos/syntax.js';
import type { CosFile } from '../cos/file.js';
import type { PageSource } from './kinds.js';

/**
 * One operator of a content stream with its operands, as written: what the rules of content streams read
 * (operators, operand limits, graphics-state nesting, colour and text operators, inline images). The page's
 * own streams come first, then, where `Do` draws a form XObject, the form's content in place, once per form
 * and page (a form drawn twice is read once), to MAX_FORM_DEPTH.
 */
export interface Operation {
  op: string;
  operands: PdfValue[];
  /** The resources in force: the page's, or the form's own (or its drawer's, when it has none). */
  resources: PdfDict | undefined;
  /** "page 3", or "page 3, form XObject 12". */
  where: string;
  /** The object number of the form XObject this operation is in; undefined on the page itself. */
  form: number | undefined;
  /** `q` nesting before this operator, counted from the stream it is in. */
  depth: number;
  /** For `BI`: the inline image's dictionary (abbreviated keys as written). */
  inlineImage?: PdfDict;
}

const MAX_FORM_DEPTH = 12;
const MAX_OPERATIONS = 2_000_000;
/** The most of one content stream read; more is left unread (a page's facts never depend on it). */
const MAX_STREAM_BYTES = 16 * 1024 * 1024;

const cache = new WeakMap<PageSource, readonly Operation[]>();

/** The page's operations, read once per page whichever rules ask. */
export function pageOperations(source: PageSource): readonly Operation[] {
  let found = cache.get(source);
  if (!found) {
    found = readPage(source);
    cache.set(source, found);
  }
  return found;
}

function readPage(source: PageSource): Operation[] {
  const { cos, page, pageNumber } = source;
  const out: Operation[] = [];
  const seenForms = new Set<number>();
  const resources = cos.resolve(source.resources);
  const pageResources = isDict(resources) ? resources : undefined;
  const contents = cos.resolve(page.get('Contents'));
  const streams = Array.isArray(contents) ? contents.map((c) => cos.resolve(c)) : [contents];
  // a page's content streams are one stream split anywhere (ISO 32000-1 7.8.2): joined before reading
  const parts: Uint8Array[] = [];
  for (const stream of streams) {
    if (!isStream(stream)) continue;
    const bytes = cos.streamBytes(stream, MAX_STREAM_BYTES);
    if (bytes) parts.push(bytes, new Uint8Array([10]));
  }
  const joined = Buffer.concat(parts);
  readStream(cos, joined, pageResources, `page ${pageNumber}`, undefined, 0, out, seenForms, pageNumber);
  return out;
}

function readStream(
  cos: CosFile,
  bytes: Uint8Array,
  resources: PdfDict | undefined,
  where: string,
  form: number | undefined,
  formDepth: number,
  out: Operation[],
  seenForms: Set<number>,
  pageNumber: number,
): void {
  const lexer = new Lexer(bytes);
  let operands: PdfValue[] = [];
  let depth = 0;
  while (out.length < MAX_OPERATIONS) {
    lexer.skipSpace();
    if (lexer.pos >= bytes.length) break;
    const c = bytes[lexer.pos]!;
    const start = lexer.pos;
    // an operand: a number, a name, a string, an array or a dictionary; else a keyword (an operator)
    if (
      c === 0x2f ||
      c === 0x28 ||
      c === 0x3c ||
      c === 0x5b ||
      c === 0x2b ||
      c === 0x2d ||
      c === 0x2e ||
      (c >= 0x30 && c <= 0x39)
    ) {
      try {
        operands.push(operand(lexer));
      } catch {
        lexer.pos = start + 1;
        operands = [];
      }
      continue;
    }
    const word = lexer.word();
    if (word === '') {
      lexer.pos = start + 1; // a stray delimiter: `)`, `]`, `>`, `{`, `}`
      operands = [];
      continue;
    }
    if (word === 'true' || word === 'false' || word === 'null') {
      operands.push(word === 'null' ? null : word === 'true');
      continue;
    }
    if (word === 'BI') {
      const image = inlineImage(lexer);
      out.push({ op: 'BI', operands: [], resources, where, form, depth, inlineImage: image });
      operands = [];
      continue;
    }
    out.push({ op: word, operands, resources, where, form, depth });
    if (word === 'q') depth++;
    else if (word === 'Q') depth--;
    else if (word === 'Do' && formDepth < MAX_FORM_DEPTH) {
      const name = nameOf(operands[0]);
      const xobjects = cos.dict(resources, 'XObject');
      const ref = name === undefined ? undefined : xobjects?.get(name);
      const xobject = cos.resolve(ref);
      const num = ref instanceof PdfRef ? ref.num : undefined;
      if (
        isStream(xobject) &&
        nameOf(cos.get(xobject.stream.dict, 'Subtype')) === 'Form' &&
        num !== undefined &&
        !seenForms.has(num)
      ) {
        seenForms.add(num);
        const formBytes = cos.streamBytes(xobject, MAX_STREAM_BYTES);
        const own = cos.dict(xobject.stream.dict, 'Resources');
        if (formBytes)
          readStream(
            cos,
            formBytes,
            own ?? resources,
            `page ${pageNumber}, form XObject ${num}`,
            num,
            formDepth + 1,
            out,
            seenForms,
            pageNumber,
          );
      }
    }
    operands = [];
  }
}

/** An operand; `R` is not an operator in content, so `1 0 R` is never read as a reference here. */
function operand(lexer: Lexer): PdfValue {
  const value = lexer.value();
  return value instanceof PdfRef ? value.num : value;
}

/** An inline image's dictionary, the cursor left past its `EI`. */
function inlineImage(lexer: Lexer): PdfDict {
  const dict: PdfDict = new Map();
  const bytes = lexer.bytes;
  for (let pairs = 0; pairs < 64; pairs++) {
    lexer.skipSpace();
    if (bytes[lexer.pos] !== 0x2f) break;
    let key: PdfValue;
    try {
      key = lexer.value();
      dict.set(nameOf(key) ?? '', operand(lexer));
    } catch {
      break;
    }
  }
  lexer.word(); // ID
  // the data ends at white space, `EI`, then white space or the end (ISO 32000-1 8.9.7)
  let i = lexer.pos + 1;
  for (; i + 1 < bytes.length; i++) {
    if (
      bytes[i] === 0x45 &&
      bytes[i + 1] === 0x49 &&
      isSpace(bytes[i - 1]) &&
      (i + 2 >= bytes.length || isSpace(bytes[i + 2]))
    )
      break;
  }
  lexer.pos = Math.min(bytes.length, i + 2);
  return dict;
}

const isSpace = (c: number | undefined) =>
  c === undefined || c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 0;
