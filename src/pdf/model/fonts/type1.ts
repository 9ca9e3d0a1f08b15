import { asBinary, decrypt } from '../../type1-glyphs.js';

/**
 * What an embedded Type 1 program (FontFile) says about its glyphs (Adobe Type 1 Font Format): the names of
 * its CharStrings, each glyph's advance width (its `hsbw` or `sbw`), scaled by the FontMatrix to 1/1000 em,
 * and its built-in encoding. `length1` is the clear-text part's length; the encrypted part may be binary or
 * hexadecimal. Undefined when the program cannot be read this way.
 */
export interface Type1Program {
  names: string[];
  /** Advance width by glyph name, in 1/1000 em. */
  widths: Map<string, number>;
  /** The built-in encoding: code to glyph name; undefined when it is StandardEncoding or unreadable. */
  encoding: Map<number, string> | undefined;
  standardEncoding: boolean;
}

const EEXEC_KEY = 55665;
const CHARSTRING_KEY = 4330;
const MAX_GLYPHS = 65_536;

export function readType1(program: Uint8Array, length1: number): Type1Program | undefined {
  if (!Number.isInteger(length1) || length1 <= 0 || length1 >= program.length) return undefined;
  const clear = Buffer.from(program.buffer, program.byteOffset, length1).toString('latin1');
  const plain = decrypt(asBinary(program.subarray(length1)), EEXEC_KEY).subarray(4);
  const text = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('latin1');
  const lenIV = Number(/\/lenIV\s+(\d+)/.exec(text)?.[1] ?? 4);
  const matrix = /\/FontMatrix\s*\[\s*([-+\d.eE]+)/.exec(clear)?.[1];
  const scale = matrix === undefined ? 1 : Number(matrix) * 1000 || 1;
  const start = text.indexOf('/CharStrings');
  if (start === -1) return undefined;
  let at = text.indexOf('begin', start);
  if (at === -1) return undefined;
  at += 'begin'.length;
  const names: string[] = [];
  const widths = new Map<string, number>();
  // `/name length RD <length bytes> ND`, RD and ND as the program names them (often -| and |-)
  const entry = /\/([^\s/<>[\](){}%]+)\s+(\d+)\s+(\S+) /y;
  const end = /\s*(?:ND|\|-|noaccess\s+def|def)/y;
  while (names.length < MAX_GLYPHS) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    entry.lastIndex = at;
    const match = entry.exec(text);
    if (!match) break;
    const name = match[1]!;
    const length = Number(match[2]);
    names.push(name);
    const width = charStringWidth(
      decrypt(plain.subarray(entry.lastIndex, entry.lastIndex + length), CHARSTRING_KEY).subarray(lenIV),
    );
    if (width !== undefined) widths.set(name, width * scale);
    at = entry.lastIndex + length;
    end.lastIndex = at;
    if (!end.exec(text)) break;
    at = end.lastIndex;
  }
  // a CharStrings dictionary not read to its `end` is not known whole: its names would say glyphs are missing
  while (at < text.length && /\s/.test(text[at]!)) at++;
  if (names.length === 0 || !text.startsWith('end', at)) return undefined;
  const standardEncoding = /\/Encoding\s+StandardEncoding\s+def/.test(clear);
  let encoding: Map<number, string> | undefined;
  if (!standardEncoding) {
    encoding = new Map();
    for (const [, code, name] of clear.matchAll(/dup\s+(\d+)\s*\/([^\s/<>[\](){}%]+)\s+put/g))
      encoding.set(Number(code), name!);
  }
  return { names, widths, encoding, standardEncoding };
}

/** The advance width of a Type 1 charstring: the second operand of `hsbw`, or the third of `sbw`. */
function charStringWidth(bytes: Uint8Array): number | undefined {
  const stack: number[] = [];
  for (let i = 0; i < bytes.length && stack.length < 48;) {
    const v = bytes[i]!;
    if (v >= 32 && v <= 246) {
      stack.push(v - 139);
      i++;
    } else if (v >= 247 && v <= 250) {
      stack.push((v - 247) * 256 + bytes[i + 1]! + 108);
      i += 2;
    } else if (v >= 251 && v <= 254) {
      stack.push(-(v - 251) * 256 - bytes[i + 1]! - 108);
      i += 2;
    } else if (v === 255) {
      stack.push((bytes[i + 1]! << 24) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 8) | bytes[i + 4]! | 0);
      i += 5;
    } else if (v === 13) return stack.length >= 2 ? stack[1] : undefined;
    else if (v === 12) {
      if (bytes[i + 1] === 7) return stack.length >= 3 ? stack[2] : undefined;
      // `div` before hsbw: a width written as a fraction
      if (bytes[i + 1] === 12 && stack.length >= 2) {
        const b = stack.pop()!;
        const a = stack.pop()!;
        stack.push(b === 0 ? 0 : a / b);
        i += 2;
        continue;
      }
      return undefined;
    } else return undefined;
  }
  return undefined;
}
