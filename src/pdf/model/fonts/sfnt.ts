import { ASCII_NAMES, MAC_ROMAN } from './encodings.js';

/**
 * What a TrueType (or OpenType) program says about its glyphs: how many there are, each glyph's advance width,
 * and the `cmap` subtables that map character codes to glyph ids (TrueType Reference Manual, `cmap`, `hmtx`,
 * `head`, `maxp`). Reading is bounded by the program's bytes; a table that cannot be read is left out.
 */
export interface SfntProgram {
  glyphCount: number | undefined;
  unitsPerEm: number | undefined;
  /** The `cmap` subtables, by platform and encoding id, as `3,1`. */
  cmapEncodings: string[];
  /** The glyph id a subtable maps `code` to (0 when it maps none); undefined when the subtable is not there. */
  lookup(encoding: string, code: number): number | undefined;
  /** The advance width of a glyph id, in the program's units; undefined without `hmtx`. */
  advance(gid: number): number | undefined;
  /** The glyph id the `post` table names `name` (format 1 or 2); undefined when it names none. */
  gidOfName(name: string): number | undefined;
  /** The name the `post` table gives a glyph id (format 1 or 2); undefined when it gives none. */
  nameOfGid(gid: number): string | undefined;
}

const MAX_SUBTABLES = 64;

export function readSfnt(program: Uint8Array): SfntProgram | undefined {
  const data = new DataView(program.buffer, program.byteOffset, program.byteLength);
  const tag = String.fromCharCode(...program.subarray(0, 4));
  if (!(
    tag === 'true' ||
    tag === 'OTTO' ||
    (program[0] === 0 && program[1] === 1 && program[2] === 0 && program[3] === 0)
  ))
    return undefined;
  const tables = new Map<string, number>();
  try {
    const count = data.getUint16(4);
    for (let i = 0; i < count && i < 256; i++) {
      const record = 12 + i * 16;
      tables.set(String.fromCharCode(...program.subarray(record, record + 4)), data.getUint32(record + 8));
    }
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  const safe = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (error instanceof RangeError) return undefined;
      throw error;
    }
  };
  const maxp = tables.get('maxp');
  const head = tables.get('head');
  const hhea = tables.get('hhea');
  const hmtx = tables.get('hmtx');
  const glyphCount = maxp === undefined ? undefined : safe(() => data.getUint16(maxp + 4));
  const unitsPerEm = head === undefined ? undefined : safe(() => data.getUint16(head + 18));
  const metrics = hhea === undefined ? undefined : safe(() => data.getUint16(hhea + 34));
  const subtables = new Map<string, number>();
  const cmap = tables.get('cmap');
  if (cmap !== undefined)
    safe(() => {
      const count = data.getUint16(cmap + 2);
      for (let i = 0; i < count && i < MAX_SUBTABLES; i++) {
        const at = cmap + 4 + i * 8;
        const key = `${data.getUint16(at)},${data.getUint16(at + 2)}`;
        if (!subtables.has(key)) subtables.set(key, cmap + data.getUint32(at + 4));
      }
    });
  const post = tables.get('post');
  let names: PostNames | undefined;
  const postTable = () => {
    names ??= (post === undefined ? undefined : safe(() => postNames(program, data, post))) ?? {
      gids: new Map(),
      names: [],
    };
    return names;
  };
  return {
    gidOfName: (name) => postTable().gids.get(name),
    nameOfGid: (gid) => postTable().names[gid],
    glyphCount,
    unitsPerEm,
    cmapEncodings: [...subtables.keys()],
    lookup: (encoding, code) => {
      const at = subtables.get(encoding);
      return at === undefined ? undefined : (safe(() => subtableLookup(data, at, code)) ?? 0);
    },
    advance: (gid) => {
      if (hmtx === undefined || metrics === undefined || metrics === 0) return undefined;
      return safe(() => data.getUint16(hmtx + Math.min(gid, metrics - 1) * 4));
    },
  };
}

/** A `post` table's glyph names: the first glyph id of each name, and each glyph id's name. */
interface PostNames {
  gids: Map<string, number>;
  names: (string | undefined)[];
}

/** The glyph names of a `post` table of format 1 (the standard order) or 2 (indices, then Pascal strings). */
function postNames(program: Uint8Array, data: DataView, at: number): PostNames {
  const names = new Map<string, number>();
  const byGid: (string | undefined)[] = [];
  const version = data.getUint32(at);
  if (version === 0x00010000) {
    MAC_GLYPHS.forEach((name, gid) => names.set(name, gid));
    return { gids: names, names: [...MAC_GLYPHS] };
  }
  if (version !== 0x00020000) return { gids: names, names: byGid };
  const count = data.getUint16(at + 32);
  const own: string[] = [];
  let pos = at + 34 + count * 2;
  while (pos < program.length && own.length < 65_536) {
    const length = data.getUint8(pos);
    own.push(String.fromCharCode(...program.subarray(pos + 1, pos + 1 + length)));
    pos += 1 + length;
  }
  for (let gid = 0; gid < count; gid++) {
    const index = data.getUint16(at + 34 + gid * 2);
    const name = index < 258 ? MAC_GLYPHS[index] : own[index - 258];
    byGid.push(name);
    if (name !== undefined && !names.has(name)) names.set(name, gid);
  }
  return { gids: names, names: byGid };
}

/** The 258 standard Macintosh glyph names of the `post` table, in order. */
const MAC_GLYPHS: readonly string[] = [
  '.notdef',
  '.null',
  'nonmarkingreturn',
  ...ASCII_NAMES,
  ...MAC_ROMAN.slice(128).map((name, i) => (i === 202 - 128 ? 'nonbreakingspace' : name)),
  ...`Lslash lslash Scaron scaron Zcaron zcaron brokenbar Eth eth Yacute yacute Thorn thorn minus multiply
onesuperior twosuperior threesuperior onehalf onequarter threequarters franc Gbreve gbreve Idotaccent Scedilla
scedilla Cacute cacute Ccaron ccaron dcroat`.split(/\s+/),
];

/** A code's glyph id in a `cmap` subtable of format 0, 4, 6 or 12 (others map nothing here). */
function subtableLookup(data: DataView, at: number, code: number): number {
  const format = data.getUint16(at);
  if (format === 0) return code < 256 ? data.getUint8(at + 6 + code) : 0;
  if (format === 6) {
    const first = data.getUint16(at + 6);
    const count = data.getUint16(at + 8);
    return code >= first && code < first + count ? data.getUint16(at + 10 + (code - first) * 2) : 0;
  }
  if (format === 4) {
    const segments = data.getUint16(at + 6) / 2;
    const ends = at + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const ranges = deltas + segments * 2;
    for (let i = 0; i < segments; i++) {
      if (code > data.getUint16(ends + i * 2)) continue;
      const start = data.getUint16(starts + i * 2);
      if (code < start) return 0;
      const delta = data.getUint16(deltas + i * 2);
      const range = data.getUint16(ranges + i * 2);
      if (range === 0) return (code + delta) & 0xffff;
      const gid = data.getUint16(ranges + i * 2 + range + (code - start) * 2);
      return gid === 0 ? 0 : (gid + delta) & 0xffff;
    }
    return 0;
  }
  if (format === 12) {
    const groups = data.getUint32(at + 12);
    for (let i = 0; i < groups && i < 1_000_000; i++) {
      const group = at + 16 + i * 12;
      const start = data.getUint32(group);
      const end = data.getUint32(group + 4);
      if (code >= start && code <= end) return data.getUint32(group + 8) + (code - start);
    }
    return 0;
  }
  return 0;
}
