import { CFF_STANDARD_STRINGS } from '../../cff-standard-strings.js';

/**
 * What a bare CFF program (FontFile3 /Type1C or /CIDFontType0C) says about its glyphs (Adobe Technical Notes
 * #5176 and #5177): their count, each glyph's name (a name-keyed font) or CID (a CID-keyed one), its advance
 * width in text space units of 1/1000 em, and the built-in encoding. Undefined for bytes it cannot read.
 */
export interface CffProgram {
  glyphCount: number;
  cidKeyed: boolean;
  /** Glyph names by glyph id (a name-keyed font); undefined when the charset cannot be read. */
  names: string[] | undefined;
  /** The glyph id of each CID (a CID-keyed font). */
  gidOfCid: Map<number, number> | undefined;
  /** Advance width of a glyph id in 1/1000 em; undefined when its charstring cannot be read that far. */
  width(gid: number): number | undefined;
  /** The built-in encoding: code to glyph id (a name-keyed font). */
  encoding: Map<number, number> | undefined;
}

type Dict = Map<number, number[]>;

const MAX_GLYPHS = 65_536;

class Reader {
  readonly data: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8 = (at: number) => this.data.getUint8(at);
  u16 = (at: number) => this.data.getUint16(at);
  /** An INDEX at `at`: its items' [start, end), and where it ends. */
  index(at: number): { items: [number, number][]; end: number } {
    const count = this.u16(at);
    if (count === 0) return { items: [], end: at + 2 };
    const offSize = this.u8(at + 2);
    const offset = (i: number) => {
      let value = 0;
      for (let b = 0; b < offSize; b++) value = value * 256 + this.u8(at + 3 + i * offSize + b);
      return value;
    };
    const base = at + 3 + (count + 1) * offSize - 1;
    const items: [number, number][] = [];
    for (let i = 0; i < count && i < MAX_GLYPHS; i++) items.push([base + offset(i), base + offset(i + 1)]);
    return { items, end: base + offset(count) };
  }
  dict(start: number, end: number): Dict {
    const dict: Dict = new Map();
    let operands: number[] = [];
    for (let at = start; at < end;) {
      const b0 = this.u8(at);
      if (b0 <= 21) {
        const operator = b0 === 12 ? 1200 + this.u8(at + 1) : b0;
        at += b0 === 12 ? 2 : 1;
        dict.set(operator, operands);
        operands = [];
      } else if (b0 === 28) {
        operands.push(this.data.getInt16(at + 1));
        at += 3;
      } else if (b0 === 29) {
        operands.push(this.data.getInt32(at + 1));
        at += 5;
      } else if (b0 === 30) {
        let text = '';
        for (at++; ; at++) {
          const byte = this.u8(at);
          const nibbles = [byte >> 4, byte & 15];
          let done = false;
          for (const n of nibbles) {
            if (n === 15) done = true;
            else text += n <= 9 ? String(n) : (['.', 'E', 'E-', '', '-'][n - 10] ?? '');
            if (done) break;
          }
          if (done) break;
        }
        at++;
        operands.push(Number(text) || 0);
      } else if (b0 >= 32 && b0 <= 246) {
        operands.push(b0 - 139);
        at++;
      } else if (b0 >= 247 && b0 <= 250) {
        operands.push((b0 - 247) * 256 + this.u8(at + 1) + 108);
        at += 2;
      } else if (b0 >= 251 && b0 <= 254) {
        operands.push(-(b0 - 251) * 256 - this.u8(at + 1) - 108);
        at += 2;
      } else throw new RangeError('not a CFF DICT');
    }
    return dict;
  }
}

const CHARSET = 15;
const ENCODING = 16;
const CHARSTRINGS = 17;
const PRIVATE = 18;
const ROS = 1230;
const FONT_MATRIX = 1207;
const FD_ARRAY = 1236;
const FD_SELECT = 1237;
const DEFAULT_WIDTH = 20;
const NOMINAL_WIDTH = 21;

export function readCff(program: Uint8Array): CffProgram | undefined {
  try {
    return parse(new Reader(program));
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function parse(r: Reader): CffProgram | undefined {
  if (r.u8(0) !== 1) return undefined;
  const names = r.index(r.u8(2));
  const tops = r.index(names.end);
  const strings = r.index(tops.end);
  const top = tops.items[0];
  if (!top) return undefined;
  const dict = r.dict(top[0], top[1]);
  const charStringsAt = dict.get(CHARSTRINGS)?.at(-1);
  if (charStringsAt === undefined) return undefined;
  const charStrings = r.index(charStringsAt).items;
  const glyphCount = charStrings.length;
  const cidKeyed = dict.has(ROS);
  const sids = charsetIds(r, dict.get(CHARSET)?.at(-1) ?? 0, glyphCount);
  const stringOf = (sid: number) => {
    if (sid < CFF_STANDARD_STRINGS.length) return CFF_STANDARD_STRINGS[sid]!;
    const item = strings.items[sid - CFF_STANDARD_STRINGS.length];
    return item ? String.fromCharCode(...r.bytes.subarray(item[0], item[1])) : `sid${sid}`;
  };
  // glyph space to 1/1000 em: the FontMatrix (0.001 by default), a font DICT's concatenated with the Top's
  const topMatrix = dict.get(FONT_MATRIX);
  const topScale = topMatrix && topMatrix.length === 6 ? topMatrix[0]! * 1000 : 1;
  // each glyph's Private DICT widths: one for a name-keyed font, per font DICT for a CID-keyed one
  const privateWidths = (d: Dict) => {
    const at = d.get(PRIVATE);
    if (!at || at.length < 2) return { dflt: 0, nominal: 0 };
    const priv = r.dict(at[1]!, at[1]! + at[0]!);
    return { dflt: priv.get(DEFAULT_WIDTH)?.[0] ?? 0, nominal: priv.get(NOMINAL_WIDTH)?.[0] ?? 0 };
  };
  let widthsOf: (gid: number) => { dflt: number; nominal: number; scale: number } = () => ({
    ...privateWidths(dict),
    scale: topScale,
  });
  if (cidKeyed) {
    const fdArrayAt = dict.get(FD_ARRAY)?.at(-1);
    const fdSelectAt = dict.get(FD_SELECT)?.at(-1);
    if (fdArrayAt !== undefined && fdSelectAt !== undefined) {
      const fds = r.index(fdArrayAt).items.map(([s, e]) => {
        const fd = r.dict(s, e);
        const m = fd.get(FONT_MATRIX);
        const own = m && m.length === 6 ? m[0]! * (topMatrix ? topMatrix[0]! : 1) * 1000 : topScale;
        return { ...privateWidths(fd), scale: own };
      });
      const select = fdSelect(r, fdSelectAt, glyphCount);
      widthsOf = (gid) => fds[select(gid)] ?? { dflt: 0, nominal: 0, scale: topScale };
    }
  }
  const gidOfCid = cidKeyed && sids ? new Map(sids.map((cid, gid) => [cid, gid])) : undefined;
  return {
    glyphCount,
    cidKeyed,
    names: !cidKeyed && sids ? sids.map(stringOf) : undefined,
    gidOfCid,
    width: (gid) => {
      const item = charStrings[gid];
      if (!item) return undefined;
      const { dflt, nominal, scale } = widthsOf(gid);
      // a matrix far from 1/1000 em is one this reader does not follow
      if (!(scale > 0.1 && scale < 10)) return undefined;
      const own = charStringWidth(r, item[0], item[1]);
      if (own === null) return undefined;
      return (own === undefined ? dflt : nominal + own) * scale;
    },
    encoding: cidKeyed || !sids ? undefined : builtInEncoding(r, dict.get(ENCODING)?.at(-1) ?? 0, sids),
  };
}

/** The charset: each glyph id's string id (name-keyed) or CID (CID-keyed); glyph 0 is .notdef. */
function charsetIds(r: Reader, at: number, glyphs: number): number[] | undefined {
  if (at <= 2) {
    // the predefined charsets: ISOAdobe's string ids run 0, 1, 2, ... (Expert ones are not read here)
    return at === 0 ? Array.from({ length: glyphs }, (_, i) => i) : undefined;
  }
  const ids: number[] = [0];
  const format = r.u8(at);
  let pos = at + 1;
  while (ids.length < glyphs) {
    if (format === 0) {
      ids.push(r.u16(pos));
      pos += 2;
    } else if (format === 1 || format === 2) {
      const first = r.u16(pos);
      const left = format === 1 ? r.u8(pos + 2) : r.u16(pos + 2);
      pos += format === 1 ? 3 : 4;
      for (let i = 0; i <= left && ids.length < glyphs; i++) ids.push(first + i);
    } else return undefined;
  }
  return ids;
}

function fdSelect(r: Reader, at: number, glyphs: number): (gid: number) => number {
  const format = r.u8(at);
  if (format === 0) return (gid) => (gid < glyphs ? r.u8(at + 1 + gid) : 0);
  if (format === 3) {
    const ranges = r.u16(at + 1);
    return (gid) => {
      for (let i = 0; i < ranges; i++) {
        const first = r.u16(at + 3 + i * 3);
        const next = r.u16(at + 3 + (i + 1) * 3);
        if (gid >= first && gid < next) return r.u8(at + 3 + i * 3 + 2);
      }
      return 0;
    };
  }
  return () => 0;
}

/** Standard encoding's string ids by code (CFF specification, Appendix B), for the predefined encoding 0. */
const STANDARD_SIDS: readonly number[] = (() => {
  const sids = new Array<number>(256).fill(0);
  for (let code = 32; code <= 126; code++) sids[code] = code - 31;
  const high = [
    96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 0, 111, 112, 113, 114, 0, 115, 116,
    117, 118, 119, 120, 121, 122, 0, 123, 0, 124, 125, 126, 127, 128, 129, 130, 131, 0, 132, 133, 0, 134, 135,
    136, 137, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 138, 0, 139, 0, 0, 0, 0, 140, 141, 142, 143, 0,
    0, 0, 0, 0, 144, 0, 0, 0, 145, 0, 0, 146, 147, 148, 149,
  ];
  high.forEach((sid, i) => (sids[161 + i] = sid));
  return sids;
})();

/** A name-keyed CFF's built-in encoding: code to glyph id (CFF specification, 12). */
function builtInEncoding(r: Reader, at: number, sids: number[]): Map<number, number> | undefined {
  const map = new Map<number, number>();
  if (at === 0) {
    const gidOfSid = new Map(sids.map((sid, gid) => [sid, gid]));
    STANDARD_SIDS.forEach((sid, code) => {
      const gid = sid === 0 ? undefined : gidOfSid.get(sid);
      if (gid !== undefined) map.set(code, gid);
    });
    return map;
  }
  if (at === 1) return undefined;
  const format = r.u8(at);
  let pos = at + 1;
  if ((format & 0x7f) === 0) {
    const count = r.u8(pos++);
    for (let gid = 1; gid <= count; gid++) map.set(r.u8(pos++), gid);
  } else if ((format & 0x7f) === 1) {
    const ranges = r.u8(pos++);
    let gid = 1;
    for (let i = 0; i < ranges; i++) {
      const first = r.u8(pos);
      const left = r.u8(pos + 1);
      pos += 2;
      for (let c = 0; c <= left; c++) map.set(first + c, gid++);
    }
  } else return undefined;
  if (format & 0x80) {
    const gidOfSid = new Map(sids.map((sid, gid) => [sid, gid]));
    const supplements = r.u8(pos++);
    for (let i = 0; i < supplements; i++) {
      const gid = gidOfSid.get(r.u16(pos + 1));
      if (gid !== undefined) map.set(r.u8(pos), gid);
      pos += 3;
    }
  }
  return map;
}

/**
 * The width operand of a Type 2 charstring (Technical Note #5177, 3.1): the extra first operand of its first
 * stack-clearing operator; undefined when there is none (the default width applies), null when a subroutine
 * call comes first (the width may be in the subroutine, which is not followed here).
 */
function charStringWidth(r: Reader, start: number, end: number): number | undefined | null {
  const stack: number[] = [];
  let hints = 0;
  for (let at = start; at < end;) {
    const b0 = r.u8(at);
    if (b0 === 28) {
      stack.push(r.data.getInt16(at + 1));
      at += 3;
    } else if (b0 >= 32 && b0 <= 246) {
      stack.push(b0 - 139);
      at++;
    } else if (b0 >= 247 && b0 <= 250) {
      stack.push((b0 - 247) * 256 + r.u8(at + 1) + 108);
      at += 2;
    } else if (b0 >= 251 && b0 <= 254) {
      stack.push(-(b0 - 251) * 256 - r.u8(at + 1) - 108);
      at += 2;
    } else if (b0 === 255) {
      stack.push(r.data.getInt32(at + 1) / 65536);
      at += 5;
    } else {
      // an operator: those that clear the stack carry the width as an extra first operand
      const even = [1, 3, 18, 23, 19, 20].includes(b0);
      if (even) return stack.length % 2 === 1 ? stack[0] : undefined;
      if (b0 === 21) return stack.length > 2 ? stack[0] : undefined;
      if (b0 === 4 || b0 === 22) return stack.length > 1 ? stack[0] : undefined;
      if (b0 === 14) return stack.length === 1 || stack.length === 5 ? stack[0] : undefined;
      if (b0 === 10 || b0 === 29) return null;
      hints++;
      if (hints > 64) return null;
      at += b0 === 12 ? 2 : 1;
      stack.length = 0;
    }
  }
  return undefined;
}
