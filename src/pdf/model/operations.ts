import {
  isDict,
  isStream,
  Lexer,
  nameOf,
  type PdfDict,
  PdfRef,
  type PdfValue,
  type TokenWatcher,
} from '../cos/syntax.js';
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
        // a hexadecimal string with a stray byte is skipped whole, not read again from its second byte
        const close = c === 0x3c && bytes[start + 1] !== 0x3c ? bytes.indexOf(0x3e, start) : -1;
        lexer.pos = close === -1 ? start + 1 : close + 1;
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
