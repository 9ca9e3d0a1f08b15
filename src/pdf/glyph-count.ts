import { CFF_STANDARD_STRINGS } from './cff-standard-strings.js';

/**
 * How many glyphs an embedded font program holds: a bare CFF's CharStrings INDEX count (FontFile3
 * /Type1C, /CIDFontType0C), a TrueType's glyphs with an outline, an OpenType's `maxp` numGlyphs. Undefined for a program this reader
 * does not take (Type 1) or cannot read; never throws on bytes that are not what they say.
 */
export function glyphCount(program: Uint8Array): number | undefined {
  const outlined = outlinedGlyphs(program);
  if (outlined) return outlined.length;
  try {
    const tag = String.fromCharCode(...program.subarray(0, 4));
    if (
      tag === 'OTTO' ||
      tag === 'true' ||
      (program[0] === 0 && program[1] === 1 && program[2] === 0 && program[3] === 0)
    )
      return maxpGlyphs(program);
    if (program[0] === 1 && program[1] === 0) return cffGlyphs(program);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return undefined;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where each table of an OpenType or TrueType program starts, by tag. */
function tables(program: Uint8Array, data: DataView): Map<string, number> {
  const found = new Map<string, number>();
  const count = data.getUint16(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    found.set(String.fromCharCode(...program.subarray(record, record + 4)), data.getUint32(record + 8));
  }
  return found;
}

/** An OpenType program's `maxp` numGlyphs. */
function maxpGlyphs(program: Uint8Array): number | undefined {
  const data = view(program);
  const maxp = tables(program, data).get('maxp');
  return maxp === undefined ? undefined : data.getUint16(maxp + 4);
}

/**
 * The glyph ids a TrueType program holds an outline for, in order (a subsetter keeps numGlyphs and empties
 * the glyphs it drops); undefined for a program without `glyf` or that cannot be read.
 */
export function outlinedGlyphs(program: Uint8Array): number[] | undefined {
  try {
    const data = view(program);
    const at = tables(program, data);
    const [maxp, head, loca] = [at.get('maxp'), at.get('head'), at.get('loca')];
    if (maxp === undefined || head === undefined || loca === undefined || !at.has('glyf')) return undefined;
    const long = data.getInt16(head + 50) === 1;
    const offset = (i: number) => (long ? data.getUint32(loca + i * 4) : data.getUint16(loca + i * 2) * 2);
    const glyphs: number[] = [];
    for (let i = 0, count = data.getUint16(maxp + 4); i < count; i++)
      if (offset(i + 1) > offset(i)) glyphs.push(i);
    return glyphs;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The item offsets of the INDEX at `at` of `count` items, and where its data starts (offsets count from 1). */
function indexOffsets(data: DataView, at: number, count: number) {
  const offSize = data.getUint8(at + 2);
  const offset = (i: number) => {
    let value = 0;
    for (let b = 0; b < offSize; b++) value = value * 256 + data.getUint8(at + 3 + i * offSize + b);
    return value;
  };
  return { offset, dataStart: at + 3 + (count + 1) * offSize - 1 };
}

/** Where the INDEX at `at` starts and ends, and the offset and length of its first item. */
function index(
  data: DataView,
  at: number,
): { start: number; end: number; count: number; first?: [number, number] } {
  const count = data.getUint16(at);
  if (count === 0) return { start: at, end: at + 2, count };
  const { offset, dataStart } = indexOffsets(data, at, count);
  return {
    start: at,
    end: dataStart + offset(count),
    count,
    first: [dataStart + offset(0), offset(1) - offset(0)],
  };
}

/** Item `i` of the INDEX at `at`, as Latin-1 text. */
function stringAt(program: Uint8Array, data: DataView, at: number, i: number): string {
  const count = data.getUint16(at);
  if (i >= count) throw new RangeError(`no string ${i} in an INDEX of ${count}`);
  const { offset, dataStart } = indexOffsets(data, at, count);
  return String.fromCharCode(...program.subarray(dataStart + offset(i), dataStart + offset(i + 1)));
}

const CHARSET = 15;
const CHARSTRINGS = 17;

/** A CFF's Top DICT: each operator's operands (CFF specification, 9), reals read as 0. */
function topDict(data: DataView): Map<number, number[]> | undefined {
  const names = index(data, data.getUint8(2));
  const top = index(data, names.end);
  if (!top.first) return undefined;
  const [start, length] = top.first;
  const dict = new Map<number, number[]>();
  let operands: number[] = [];
  for (let at = start; at < start + length;) {
    const b0 = data.getUint8(at);
    if (b0 <= 21) {
      const operator = b0 === 12 ? 1200 + data.getUint8(at + 1) : b0;
      at += b0 === 12 ? 2 : 1;
      dict.set(operator, operands);
      operands = [];
    } else if (b0 === 28) {
      operands.push(data.getInt16(at + 1));
      at += 3;
    } else if (b0 === 29) {
      operands.push(data.getInt32(at + 1));
      at += 5;
    } else if (b0 === 30) {
      // a real: nibbles up to one that is 0xf
      at++;
      while ((data.getUint8(at) & 0x0f) !== 0x0f && (data.getUint8(at) & 0xf0) !== 0xf0) at++;
      at++;
      operands.push(0);
    } else if (b0 >= 32 && b0 <= 246) {
      operands.push(b0 - 139);
      at += 1;
    } else if (b0 >= 247 && b0 <= 250) {
      operands.push((b0 - 247) * 256 + data.getUint8(at + 1) + 108);
      at += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      operands.push(-(b0 - 251) * 256 - data.getUint8(at + 1) - 108);
      at += 2;
    } else return undefined;
  }
  return dict;
}

/** A CFF's glyph count: the CharStrings INDEX that the Top DICT points at (CFF specification, 5 and 9). */
function cffGlyphs(program: Uint8Array): number | undefined {
  const data = view(program);
  const at = topDict(data)?.get(CHARSTRINGS)?.at(-1);
  return at === undefined ? undefined : data.getUint16(at);
}

/**
 * A bare CFF's glyph names, by glyph id (CFF specification, 13): its charset's string ids, read in the
 * standard strings and then its String INDEX. Undefined for a CID-keyed CFF (its charset holds CIDs), one
 * of the predefined charsets, or a program that cannot be read.
 */
export function cffGlyphNames(program: Uint8Array): string[] | undefined {
  try {
    const data = view(program);
    const dict = topDict(data);
    const charStrings = dict?.get(CHARSTRINGS)?.at(-1);
    const charset = dict?.get(CHARSET)?.at(-1);
    if (!dict || charStrings === undefined || charset === undefined || charset <= 2 || dict.has(1230))
      return undefined;
    const glyphs = data.getUint16(charStrings);
    const names = index(data, data.getUint8(2));
    const strings = index(data, index(data, names.end).end);
    const sids: number[] = [0];
    const format = data.getUint8(charset);
    let at = charset + 1;
    while (sids.length < glyphs) {
      if (format === 0) {
        sids.push(data.getUint16(at));
        at += 2;
      } else if (format === 1 || format === 2) {
        const first = data.getUint16(at);
        const left = format === 1 ? data.getUint8(at + 2) : data.getUint16(at + 2);
        at += format === 1 ? 3 : 4;
        for (let i = 0; i <= left && sids.length < glyphs; i++) sids.push(first + i);
      } else return undefined;
    }
    return sids.map((sid) =>
      sid < CFF_STANDARD_STRINGS.length
        ? CFF_STANDARD_STRINGS[sid]!
        : stringAt(program, data, strings.start, sid - CFF_STANDARD_STRINGS.length),
    );
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
