import {
  isDict,
  isStream,
  Lexer,
  nameOf,
  type PdfDict,
  PdfRef,
  type PdfValue,
  SyntaxFailure,
  type TokenWatcher,
} from '../cos/syntax.js';
import type { CosFile } from '../cos/file.js';
import type { PageSource } from './node.js';

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
  /**
   * "page 3", "page 3, form XObject 12", or, read apart, "page 3, annotation 9", "page 3, pattern 12", "page
   * 3, Type 3 glyph /a of font 9" (see `appearanceOperations`, `resourceOperations`).
   */
  where: string;
  /**
   * The object number of the stream this operation is in when it is not the page's own: a form XObject, an
   * appearance stream, a pattern or a glyph procedure; undefined on the page itself.
   */
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

/** A hexadecimal string `<...>` as written: its digits, and whether every other byte in it was white space. */
export interface HexString {
  digits: number;
  onlyDigits: boolean;
}

/** The range of one kind of number in a stream: how many, the least and the greatest. */
export interface NumberRange {
  count: number;
  min: number;
  max: number;
}

/**
 * The tokens of one content stream as the lexer met them, operands and what is inside them (an array's
 * items, a dictionary's values, an inline image's entries). Content is mostly numbers and text, so each list
 * holds the distinct values met, once (in the order first met), and numbers by their range.
 */
export interface ContentTokens {
  /** As an operation's `where`. */
  where: string;
  integers: NumberRange;
  /** `nearestZero`: the real closest to 0 other than 0 itself (0 when there is none). */
  reals: NumberRange & { nearestZero: number };
  /** The lengths in bytes of the literal strings `(...)`, escapes decoded. */
  strings: Set<number>;
  hexStrings: HexString[];
  /** The lengths of names in bytes, `#xx` escapes decoded. */
  names: Set<number>;
  /** The items of arrays. */
  arrays: Set<number>;
  /** The entries of dictionaries. */
  dictionaries: Set<number>;
}

interface PageRead {
  operations: readonly Operation[];
  tokens: readonly ContentTokens[];
}

const cache = new WeakMap<PageSource, PageRead>();

function pageRead(source: PageSource): PageRead {
  let found = cache.get(source);
  if (!found) {
    found = readPage(source);
    cache.set(source, found);
  }
  return found;
}

/** The page's operations, read once per page whichever rules ask. */
export function pageOperations(source: PageSource): readonly Operation[] {
  return pageRead(source).operations;
}

/** The tokens of the page's content and of the forms it draws, one list per stream, from the same reading. */
export function pageTokens(source: PageSource): readonly ContentTokens[] {
  return pageRead(source).tokens;
}

const appearanceCache = new WeakMap<PageSource, PageRead>();

function appearanceRead(source: PageSource): PageRead {
  let found = appearanceCache.get(source);
  if (!found) {
    found = readAppearances(source);
    appearanceCache.set(source, found);
  }
  return found;
}

/**
 * The operations of the appearance streams of the page's annotations (each of /N, /R and /D, every state),
 * with the forms they draw, as `pageOperations` reads the page's own: apart from them, since they are drawn
 * only where a viewer shows the annotation. `where` is "page 3, annotation 12" (its object number, or its
 * place in /Annots when it is written in the page).
 */
export function appearanceOperations(source: PageSource): readonly Operation[] {
  return appearanceRead(source).operations;
}

/** The tokens of the same appearance streams, one list per stream. */
export function appearanceTokens(source: PageSource): readonly ContentTokens[] {
  return appearanceRead(source).tokens;
}

const resourceCache = new WeakMap<PageSource, PageRead>();

/**
 * The operations of content that the page's resources hold rather than draw: the cells of tiling patterns
 * and the glyph procedures of Type 3 fonts, in the resources of the page and of each form it draws, with the
 * forms they draw. `where` is "page 3, pattern 12" or "page 3, Type 3 glyph /a of font 9".
 */
export function resourceOperations(source: PageSource): readonly Operation[] {
  return resourceRead(source).operations;
}

/** The tokens of the same content, one list per stream. */
export function resourceTokens(source: PageSource): readonly ContentTokens[] {
  return resourceRead(source).tokens;
}

function resourceRead(source: PageSource): PageRead {
  let found = resourceCache.get(source);
  if (!found) {
    found = readResources(source);
    resourceCache.set(source, found);
  }
  return found;
}

function tokenLog(where: string): { tokens: ContentTokens; watcher: TokenWatcher } {
  const tokens: ContentTokens = {
    where,
    integers: { count: 0, min: Infinity, max: -Infinity },
    reals: { count: 0, min: Infinity, max: -Infinity, nearestZero: 0 },
    strings: new Set(),
    hexStrings: [],
    names: new Set(),
    arrays: new Set(),
    dictionaries: new Set(),
  };
  const hexSeen = new Set<number>();
  const hex = (digits: number, onlyDigits: boolean) => {
    const key = digits * 2 + (onlyDigits ? 1 : 0);
    if (hexSeen.has(key)) return;
    hexSeen.add(key);
    tokens.hexStrings.push({ digits, onlyDigits });
  };
  // a clean hexadecimal string is told again as a string, which is not a literal one
  let hexTold = false;
  const watcher: TokenWatcher = {
    number(word, value) {
      const range = word.includes('.') ? tokens.reals : tokens.integers;
      range.count++;
      if (value < range.min) range.min = value;
      if (value > range.max) range.max = value;
      const { reals } = tokens;
      if (
        range === reals &&
        value !== 0 &&
        (reals.nearestZero === 0 || Math.abs(value) < Math.abs(reals.nearestZero))
      )
        reals.nearestZero = value;
    },
    hexString(digits, clean) {
      hex(digits, clean);
      hexTold = clean;
    },
    string(bytes) {
      if (!hexTold) tokens.strings.add(bytes);
      hexTold = false;
    },
    name: (bytes) => tokens.names.add(bytes),
    array: (items) => tokens.arrays.add(items),
    dictionary: (entries) => tokens.dictionaries.add(entries),
  };
  return { tokens, watcher };
}

function readPage(source: PageSource): PageRead {
  const { cos, page, pageNumber } = source;
  const out: Operation[] = [];
  const tokens: ContentTokens[] = [];
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
  readStream(
    cos,
    joined,
    pageResources,
    `page ${pageNumber}`,
    undefined,
    0,
    out,
    tokens,
    seenForms,
    pageNumber,
  );
  return { operations: out, tokens };
}

const MAX_ANNOTATIONS = 10_000;
const MAX_STATES = 64;

function readAppearances(source: PageSource): PageRead {
  const { cos, page, pageNumber } = source;
  const out: Operation[] = [];
  const tokens: ContentTokens[] = [];
  const seenForms = new Set<number>();
  const annotations = cos.array(page, 'Annots').slice(0, MAX_ANNOTATIONS);
  for (const [index, ref] of annotations.entries()) {
    const annotation = cos.resolve(ref);
    if (!isDict(annotation)) continue;
    const where = `page ${pageNumber}, annotation ${ref instanceof PdfRef ? ref.num : `${index + 1} of /Annots`}`;
    const appearances = cos.dict(annotation, 'AP');
    for (const key of ['N', 'R', 'D']) {
      const raw = appearances?.get(key);
      const value = cos.resolve(raw);
      // an appearance stream, or a dictionary of them by state
      const entries = isStream(value) ? [raw] : isDict(value) ? [...value.values()].slice(0, MAX_STATES) : [];
      for (const entry of entries) {
        const stream = cos.resolve(entry);
        if (!isStream(stream)) continue;
        const num = entry instanceof PdfRef ? entry.num : undefined;
        if (num !== undefined) {
          if (seenForms.has(num)) continue;
          seenForms.add(num);
        }
        const bytes = cos.streamBytes(stream, MAX_STREAM_BYTES);
        if (!bytes) continue;
        const resources = cos.dict(stream.stream.dict, 'Resources');
        readStream(cos, bytes, resources, where, num, 1, out, tokens, seenForms, pageNumber);
      }
    }
  }
  return { operations: out, tokens };
}

const MAX_RESOURCE_STREAMS = 4096;

function readResources(source: PageSource): PageRead {
  const { cos, pageNumber } = source;
  const out: Operation[] = [];
  const tokens: ContentTokens[] = [];
  const seenForms = new Set<number>();
  const dictionaries = new Set<PdfDict>();
  for (const operation of pageOperations(source))
    if (operation.resources) dictionaries.add(operation.resources);
  const page = cos.resolve(source.resources);
  if (isDict(page)) dictionaries.add(page);
  const read = new Set<unknown>();
  const content = (raw: PdfValue | undefined, fallback: PdfDict | undefined, where: string) => {
    const stream = cos.resolve(raw);
    if (!isStream(stream) || read.has(stream) || read.size >= MAX_RESOURCE_STREAMS) return;
    read.add(stream);
    const bytes = cos.streamBytes(stream, MAX_STREAM_BYTES);
    const num = raw instanceof PdfRef ? raw.num : undefined;
    const resources = cos.dict(stream.stream.dict, 'Resources') ?? fallback;
    if (bytes) readStream(cos, bytes, resources, where, num, 1, out, tokens, seenForms, pageNumber);
  };
  for (const resources of dictionaries) {
    for (const [name, raw] of cos.dict(resources, 'Pattern') ?? []) {
      const pattern = cos.resolve(raw);
      if (isStream(pattern) && cos.get(pattern.stream.dict, 'PatternType') === 1)
        content(
          raw,
          resources,
          `page ${pageNumber}, pattern ${raw instanceof PdfRef ? raw.num : `/${name}`}`,
        );
    }
    for (const [name, raw] of cos.dict(resources, 'Font') ?? []) {
      const font = cos.resolve(raw);
      if (!isDict(font) || nameOf(cos.get(font, 'Subtype')) !== 'Type3') continue;
      const own = cos.dict(font, 'Resources') ?? resources;
      const which = raw instanceof PdfRef ? `font ${raw.num}` : `font /${name}`;
      for (const [glyph, proc] of cos.dict(font, 'CharProcs') ?? [])
        content(proc, own, `page ${pageNumber}, Type 3 glyph /${glyph} of ${which}`);
    }
  }
  return { operations: out, tokens };
}

function readStream(
  cos: CosFile,
  bytes: Uint8Array,
  resources: PdfDict | undefined,
  where: string,
  form: number | undefined,
  formDepth: number,
  out: Operation[],
  tokens: ContentTokens[],
  seenForms: Set<number>,
  pageNumber: number,
): void {
  const log = tokenLog(where);
  tokens.push(log.tokens);
  const lexer = new Lexer(bytes, 0, log.watcher);
  const fast = new FastTokens(bytes, lexer, log.watcher);
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
        operands.push(fast.operand());
      } catch {
        // a hexadecimal string with a stray byte is skipped whole, not read again from its second byte
        const close = c === 0x3c && bytes[start + 1] !== 0x3c ? bytes.indexOf(0x3e, start) : -1;
        lexer.pos = close === -1 ? start + 1 : close + 1;
        operands = [];
      }
      continue;
    }
    const word = fast.keyword();
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
            tokens,
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

const REGULAR = new Uint8Array(256).fill(1);
for (const c of [0, 9, 10, 12, 13, 32]) REGULAR[c] = 0;
for (const c of '()<>[]{}/%') REGULAR[c.charCodeAt(0)] = 0;
const MAX_ARRAY_NESTING = 32;

/**
 * The tokens content is mostly made of, read without making a string for each: numbers (values computed
 * from their digits; content has no references, so no look-ahead for `R`), operators (the known ones taken
 * from a table by their bytes) and arrays (a `TJ` array is numbers and strings). Strings, names and
 * dictionaries go to the object lexer. Every token is told to the watcher as the lexer tells it.
 */
class FastTokens {
  private readonly keywords = new Map<number, string>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly lexer: Lexer,
    private readonly watcher: TokenWatcher,
  ) {}

  /** The operand at the cursor (the cursor is on its first byte). */
  operand(depth = 0): PdfValue {
    const b = this.bytes;
    const c = b[this.lexer.pos]!;
    if (c === 0x5b) return this.array(depth);
    if (c === 0x2f || c === 0x28 || c === 0x3c) {
      const value = this.lexer.value();
      return value instanceof PdfRef ? value.num : value;
    }
    return this.number();
  }

  private array(depth: number): PdfValue[] {
    if (depth > MAX_ARRAY_NESTING) throw new SyntaxFailure('nesting');
    const b = this.bytes;
    const lexer = this.lexer;
    lexer.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      lexer.skipSpace();
      if (lexer.pos >= b.length) throw new SyntaxFailure('unterminated array');
      const c = b[lexer.pos]!;
      if (c === 0x5d) {
        lexer.pos++;
        this.watcher.array(items.length);
        return items;
      }
      if (REGULAR[c] && !(c === 0x2b || c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39))) {
        // true, false, null inside an array
        const word = lexer.word();
        if (word === 'true' || word === 'false') items.push(word === 'true');
        else if (word === 'null') items.push(null);
        else throw new SyntaxFailure('not an operand');
        continue;
      }
      items.push(this.operand(depth + 1));
    }
  }

  /** A number: sign, digits, a point, digits, as PDF writes them; anything else in the token is a failure. */
  private number(): number {
    const b = this.bytes;
    const lexer = this.lexer;
    const start = lexer.pos;
    let i = start;
    let negative = false;
    if (b[i] === 0x2b || b[i] === 0x2d) negative = b[i++] === 0x2d;
    let value = 0;
    let digits = 0;
    let scale = 0;
    let real = false;
    for (; i < b.length; i++) {
      const c = b[i]!;
      if (c >= 0x30 && c <= 0x39) {
        value = value * 10 + (c - 0x30);
        digits++;
        if (real) scale++;
      } else if (c === 0x2e && !real) real = true;
      else break;
    }
    const end = i;
    while (i < b.length && REGULAR[b[i]!]) i++;
    lexer.pos = i;
    if (i !== end || digits === 0) {
      // not a plain number (`1.2.3`, `--5`, `5x`): read as the lexer reads it, which fails on it
      lexer.pos = start;
      return lexer.value() as number;
    }
    // past 15 digits the sum loses precision: the text is read as the lexer reads it
    if (digits > 15) value = Math.abs(Number(latin1Of(b, start, end)));
    else if (scale > 0) value /= 10 ** scale;
    if (negative) value = -value;
    this.watcher.number(real ? '.' : '', value);
    return value;
  }

  /** An operator's name (or `true`, `false`, `null`), '' at a delimiter. */
  keyword(): string {
    const b = this.bytes;
    const lexer = this.lexer;
    const start = lexer.pos;
    let i = start;
    while (i < b.length && REGULAR[b[i]!]) i++;
    lexer.pos = i;
    const length = i - start;
    if (length === 0) return '';
    if (length > 3) return latin1Of(b, start, i);
    const key =
      (b[start]! << 16) | ((length > 1 ? b[start + 1]! : 0) << 8) | (length > 2 ? b[start + 2]! : 0);
    let word = this.keywords.get(key);
    if (word === undefined) {
      word = latin1Of(b, start, i);
      this.keywords.set(key, word);
    }
    return word;
  }
}

function latin1Of(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]!);
  return out;
}
