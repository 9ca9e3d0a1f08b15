/**
 * PDF's object syntax (ISO 32000-1, 7.3): enough to read dictionaries, arrays and stream headers. Reading is
 * bounded: nesting deeper than MAX_NESTING, or bytes that are not an object, answer `undefined` or a
 * SyntaxFailure, never a loop or a deep recursion.
 */

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

export type PdfDict = Map<string, PdfValue>;

/** A stream's dictionary, and where its data starts in the bytes it was read from. */
export interface PdfStream {
  dict: PdfDict;
  dataStart: number;
}

export type PdfValue =
  null | boolean | number | Uint8Array | PdfName | PdfRef | PdfValue[] | PdfDict | { stream: PdfStream };

export class SyntaxFailure extends Error {}

const MAX_NESTING = 64;

const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const DELIMITER = new Uint8Array(256);
for (const c of '()<>[]{}/%') DELIMITER[c.charCodeAt(0)] = 1;

const isRegular = (c: number) => !WHITESPACE[c] && !DELIMITER[c];

/** A literal string's escapes that stand for one byte (`\\n`, `\\r`, `\\t`, `\\b`, `\\f`); 0 for the others. */
const ESCAPES = new Uint8Array(256);
ESCAPES[110] = 10;
ESCAPES[114] = 13;
ESCAPES[116] = 9;
ESCAPES[98] = 8;
ESCAPES[102] = 12;
/** A hexadecimal digit's value; 0xff for any other byte. */
const HEX_VALUE = new Uint8Array(256).fill(0xff);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
for (let i = 10; i < 16; i++) HEX_VALUE['ABCDEF'.charCodeAt(i - 10)] = i;

/** Where the literal string whose bytes start at `pos` (past its `(`) ends: past its `)`, or the end. */
function literalStringEnd(b: Uint8Array, pos: number): number {
  let nesting = 1;
  for (let i = pos; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x5c) i++;
    else if (c === 0x28) nesting++;
    else if (c === 0x29 && --nesting === 0) return i + 1;
  }
  return b.length;
}

/** The bytes from `start` to `end` hold no backslash, no parenthesis and no carriage return. */
function plainLiteral(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c === 0x5c || c === 0x28 || c === 0x29 || c === 13) return false;
  }
  return true;
}

/**
 * What a syntax scan wants told about each token as it is read (ISO 19005's implementation limits and hex
 * strings): the lexer reads as it always does, and calls these when a watcher is given.
 */
export interface TokenWatcher {
  number(word: string, value: number): void;
  /** `digits`: the hexadecimal digits; `clean`: no byte other than digits and white space. */
  hexString(digits: number, clean: boolean): void;
  name(bytes: number): void;
  string(bytes: number): void;
  array(items: number): void;
  dictionary(entries: number): void;
}

/** Reads objects from `bytes` from `pos` on; `bytes` may be a window of a file. */
export class Lexer {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
    private readonly watcher?: TokenWatcher,
  ) {}

  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE[c]) this.pos++;
      else if (c === 0x25) {
        while (this.pos < b.length && b[this.pos] !== 10 && b[this.pos] !== 13) this.pos++;
      } else break;
    }
  }

  private fail(): never {
    throw new SyntaxFailure(`Unexpected bytes at ${this.pos}`);
  }

  /** A bare word (a keyword or a number) at the cursor, or '' when a delimiter is there. */
  word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.bytes.length && isRegular(this.bytes[this.pos]!)) this.pos++;
    return latin1(this.bytes, start, this.pos);
  }

  /** The object at the cursor; `obj`-level keywords (`endobj`, `stream`) are left for the caller. */
  value(depth = 0): PdfValue {
    if (depth > MAX_NESTING) this.fail();
    this.skipSpace();
    const b = this.bytes;
    if (this.pos >= b.length) this.fail();
    const c = b[this.pos]!;
    if (c === 0x2f) return this.name();
    if (c === 0x28) return this.literalString();
    if (c === 0x3c) {
      if (b[this.pos + 1] === 0x3c) return this.dictionary(depth);
      return this.hexString();
    }
    if (c === 0x5b) {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipSpace();
        if (this.pos >= b.length) this.fail();
        if (b[this.pos] === 0x5d) {
          this.pos++;
          this.watcher?.array(items.length);
          return items;
        }
        items.push(this.value(depth + 1));
      }
    }
    const start = this.pos;
    const word = this.word();
    if (word === '') this.fail();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    const number = Number(word);
    if (word === '' || Number.isNaN(number)) {
      this.pos = start;
      this.fail();
    }
    this.watcher?.number(word, number);
    // `num gen R`: look ahead for the second integer and the R
    if (Number.isInteger(number) && number >= 0 && /^\d+$/.test(word)) {
      const after = this.pos;
      const gen = this.word();
      if (/^\d+$/.test(gen) && this.word() === 'R') return new PdfRef(number, Number(gen));
      this.pos = after;
    }
    return number;
  }

  private name(): PdfName {
    this.pos++;
    const b = this.bytes;
    let out = '';
    while (this.pos < b.length && isRegular(b[this.pos]!)) {
      const c = b[this.pos]!;
      if (c === 0x23 && this.pos + 2 < b.length) {
        const hex = Number.parseInt(latin1(b, this.pos + 1, this.pos + 3), 16);
        if (!Number.isNaN(hex)) {
          out += String.fromCharCode(hex);
          this.pos += 3;
          continue;
        }
      }
      out += String.fromCharCode(c);
      this.pos++;
    }
    this.watcher?.name(out.length);
    return new PdfName(out);
  }

  private literalString(): Uint8Array {
    const b = this.bytes;
    this.pos++;
    const end = literalStringEnd(b, this.pos);
    // most strings have no escape, no nested parenthesis and no carriage return: their bytes as written
    if (b[end - 1] === 0x29 && plainLiteral(b, this.pos, end - 1)) {
      const plain = b.slice(this.pos, end - 1);
      this.pos = end;
      this.watcher?.string(plain.length);
      return plain;
    }
    // the decoded string is never longer than what is written: one buffer of that size, filled once
    const out = new Uint8Array(end - this.pos);
    let length = 0;
    let nesting = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) {
        const next = b[this.pos++];
        if (next === undefined) break;
        const escaped = ESCAPES[next]!;
        if (escaped !== 0) out[length++] = escaped;
        else if (next >= 0x30 && next <= 0x37) {
          let code = next - 0x30;
          for (let i = 0; i < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++)
            code = code * 8 + (b[this.pos++]! - 0x30);
          out[length++] = code & 0xff;
        } else if (next === 13) {
          if (b[this.pos] === 10) this.pos++;
        } else if (next !== 10) out[length++] = next;
      } else if (c === 0x28) {
        nesting++;
        out[length++] = c;
      } else if (c === 0x29) {
        if (--nesting === 0) {
          this.watcher?.string(length);
          return out.slice(0, length);
        }
        out[length++] = c;
      } else out[length++] = c;
    }
    this.fail();
  }

  private hexString(): Uint8Array {
    const b = this.bytes;
    this.pos++;
    const start = this.pos;
    const close = b.indexOf(0x3e, start);
    const end = close < 0 ? b.length : close;
    // digits counted first, so that the bytes are written once into a buffer of their size
    let count = 0;
    for (let i = start; i < end; i++) {
      const c = b[i]!;
      if (HEX_VALUE[c] !== 0xff) count++;
      else if (!WHITESPACE[c]) {
        this.pos = i + 1;
        this.watcher?.hexString(count, false);
        this.fail();
      }
    }
    if (close < 0) {
      this.pos = b.length;
      this.fail();
    }
    this.pos = close + 1;
    this.watcher?.hexString(count, true);
    this.watcher?.string(Math.ceil(count / 2));
    // an odd last digit is followed by a 0 (ISO 32000-1 7.3.4.3)
    const out = new Uint8Array((count + 1) >> 1);
    let digit = 0;
    for (let i = start; i < end; i++) {
      const value = HEX_VALUE[b[i]!]!;
      if (value === 0xff) continue;
      if (digit % 2 === 0) out[digit >> 1] = value << 4;
      else out[digit >> 1]! |= value;
      digit++;
    }
    return out;
  }

  private dictionary(depth: number): PdfDict | { stream: PdfStream } {
    const b = this.bytes;
    this.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      this.skipSpace();
      if (this.pos >= b.length) this.fail();
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        break;
      }
      const key = this.value(depth + 1);
      if (!(key instanceof PdfName)) this.fail();
      dict.set(key.name, this.value(depth + 1));
    }
    this.watcher?.dictionary(dict.size);
    // a dictionary followed by `stream` is a stream's header; its data starts after the end of line
    const save = this.pos;
    if (this.word() === 'stream') {
      if (b[this.pos] === 13) this.pos++;
      if (b[this.pos] === 10) this.pos++;
      return { stream: { dict, dataStart: this.pos } };
    }
    this.pos = save;
    return dict;
  }
}

export function latin1(bytes: Uint8Array, start: number, end: number): string {
  if (end - start < 32) {
    let out = '';
    for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i]!);
    return out;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.max(0, end - start)).toString('latin1');
}

export const isDict = (value: PdfValue | undefined): value is PdfDict => value instanceof Map;
export const isStream = (value: PdfValue | undefined): value is { stream: PdfStream } =>
  typeof value === 'object' && value !== null && 'stream' in value;
export const nameOf = (value: PdfValue | undefined): string | undefined =>
  value instanceof PdfName ? value.name : undefined;

/**
 * PDFDocEncoding where it differs from Latin-1 (ISO 32000-1, Annex D.2): 0x18-0x1F accents, 0x80-0xA0
 * punctuation and ligatures; 0x9F and 0xAD are undefined there and read as U+FFFD.
 */
const PDF_DOC_ENCODING: Readonly<Record<number, string>> = {
  0x18: '\u02d8',
  0x19: '\u02c7',
  0x1a: '\u02c6',
  0x1b: '\u02d9',
  0x1c: '\u02dd',
  0x1d: '\u02db',
  0x1e: '\u02da',
  0x1f: '\u02dc',
  0x80: '\u2022',
  0x81: '\u2020',
  0x82: '\u2021',
  0x83: '\u2026',
  0x84: '\u2014',
  0x85: '\u2013',
  0x86: '\u0192',
  0x87: '\u2044',
  0x88: '\u2039',
  0x89: '\u203a',
  0x8a: '\u2212',
  0x8b: '\u2030',
  0x8c: '\u201e',
  0x8d: '\u201c',
  0x8e: '\u201d',
  0x8f: '\u2018',
  0x90: '\u2019',
  0x91: '\u201a',
  0x92: '\u2122',
  0x93: '\ufb01',
  0x94: '\ufb02',
  0x95: '\u0141',
  0x96: '\u0152',
  0x97: '\u0160',
  0x98: '\u0178',
  0x99: '\u017d',
  0x9a: '\u0131',
  0x9b: '\u0142',
  0x9c: '\u0153',
  0x9d: '\u0161',
  0x9e: '\u017e',
  0x9f: '\ufffd',
  0xa0: '\u20ac',
  0xad: '\ufffd',
};

/** Bytes in PDFDocEncoding as text. */
function pdfDocText(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += PDF_DOC_ENCODING[byte] ?? String.fromCharCode(byte);
  return out;
}

/** A text string (7.9.2.2): UTF-16BE or UTF-8 with their byte-order marks, else PDFDocEncoding. */
export function textString(value: PdfValue | undefined): string | undefined {
  if (!(value instanceof Uint8Array)) return undefined;
  if (value[0] === 0xfe && value[1] === 0xff) {
    let out = '';
    for (let i = 2; i + 1 < value.length; i += 2)
      out += String.fromCharCode((value[i]! << 8) | value[i + 1]!);
    return out;
  }
  if (value[0] === 0xef && value[1] === 0xbb && value[2] === 0xbf)
    return new TextDecoder().decode(value.subarray(3));
  return pdfDocText(value);
}
