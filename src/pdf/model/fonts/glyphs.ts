import { ADOBE_GLYPH_LIST } from '../../../../generated/adobe-glyph-list.js';
import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, type PdfValue, textString } from '../../cos/syntax.js';
import { isStandard14 } from '../../font-program.js';
import { glyphNameMapsToUnicode } from '../../glyph-names.js';
import { macRomanCode, namedEncoding, STANDARD } from './encodings.js';
import { cmapProgram, predefinedSystem, toUnicodeProgram, type ToUnicodeMap } from './cmap.js';
import { embeddedProgram, readProgram, type ReadProgram } from './programs.js';

/** What the file says of one glyph a text showing operator draws. */
export interface GlyphFacts {
  /** The font's `/Subtype` (a Type 0 font's, not its CIDFont's). */
  fontSubtype: string | undefined;
  /** The character code as shown. */
  code: number;
  /** A composite font's CID for the code, by its CMap. */
  cid: number | undefined;
  /**
   * The glyph's name: a simple font's, by its encoding (undefined when the encoding names none), or
   * `.notdef` for a composite font's CID 0 or a CID its program holds no glyph for.
   */
  name: string | undefined;
  /** The embedded program defines the glyph; undefined when not embedded, not read or the lookup is unknown. */
  present: boolean | undefined;
  /** The width the font dictionary gives (`/Widths` or `/W`, `/DW`), in 1/1000 em; undefined outside them. */
  widthInDictionary: number | undefined;
  /** The advance width the program gives the glyph, in 1/1000 em; undefined when it cannot be read. */
  widthInProgram: number | undefined;
  /**
   * How the code maps to Unicode (ISO 32000-1 9.10.2), read when first asked: `ToUnicode` by the font's
   * ToUnicode CMap; `glyph name` by a glyph name the Adobe Glyph List knows (or one of the Symbol or
   * ZapfDingbats fonts', or a standard font's built-in encoding); `collection` by the Unicode CMap of the
   * Adobe-GB1, CNS1, Japan1 or Korea1 character collection; undefined when by none of them.
   */
  readonly unicodeBy: UnicodeSource | undefined;
  /** The UTF-16 code units the font's ToUnicode CMap maps the code to; undefined when it maps none. */
  readonly toUnicodeUnits: number[] | undefined;
}

export type UnicodeSource = 'ToUnicode' | 'glyph name' | 'collection';

const MAX_CODES = 4096;

/** The distinct codes of `strings` shown with `font`, each with what the font and its program say of it. */
export function glyphFacts(
  cos: CosFile,
  font: PdfDict,
  strings: Uint8Array[],
  isNew: (code: number) => boolean = () => true,
): GlyphFacts[] {
  const { decode, facts } = readerOf(cos, font);
  return decode(strings)
    .filter(({ code }) => isNew(code))
    .map(({ code, cid }) => facts(code, cid));
}

/** The CIDs `strings` show with a composite font, by its CMap; none for a simple font or a CMap not read. */
export function shownCids(cos: CosFile, font: PdfDict, strings: Uint8Array[]): number[] {
  if (nameOf(cos.get(font, 'Subtype')) !== 'Type0') return [];
  return readerOf(cos, font)
    .decode(strings)
    .map(({ cid }) => cid);
}

function readerOf(cos: CosFile, font: PdfDict): GlyphReader {
  let reader = readers.get(font);
  if (!reader) {
    const subtype = nameOf(cos.get(font, 'Subtype'));
    reader = subtype === 'Type0' ? remembered(compositeGlyphs(cos, font)) : simpleGlyphs(cos, font, subtype);
    readers.set(font, reader);
  }
  return reader;
}

/**
 * A composite font's reader that decodes a list of strings once: the page builder asks for the CIDs a font
 * shows, then for its glyphs, of the same strings.
 */
function remembered(reader: GlyphReader): GlyphReader {
  const decoded = new WeakMap<Uint8Array[], { code: number; cid: number }[]>();
  return {
    facts: reader.facts,
    decode: (strings) => {
      let codes = decoded.get(strings);
      if (!codes) {
        codes = reader.decode(strings);
        decoded.set(strings, codes);
      }
      return codes;
    },
  };
}

/** How one font's codes are read and what each says, made once per font dictionary and file. */
interface GlyphReader {
  decode(strings: Uint8Array[]): { code: number; cid: number }[];
  facts(code: number, cid: number): GlyphFacts;
}

const readers = new WeakMap<PdfDict, GlyphReader>();
const NO_GLYPHS: GlyphReader = { decode: () => [], facts: () => ({}) as GlyphFacts };

/**
 * A font's ToUnicode CMap, read when a glyph's Unicode is first asked: a stream's mappings, or a predefined
 * Identity CMap named in its place (read as mapping each code to itself, as readers do).
 */
function toUnicodeOf(cos: CosFile, font: PdfDict): () => ToUnicodeMap | undefined {
  let map: { value: ToUnicodeMap | undefined } | undefined;
  return () => {
    if (!map) {
      const written = cos.get(font, 'ToUnicode');
      map = {
        value: isStream(written)
          ? toUnicodeProgram(cos, written)
          : /^Identity-[HV]$/.test(nameOf(written) ?? '')
            ? { unicodeOf: (code) => [code] }
            : undefined,
      };
    }
    return map.value;
  };
}

/** The fonts whose glyph names are their own sets, known to readers beside the Adobe Glyph List. */
const SYMBOL_SETS = /^(Symbol|ZapfDingbats|Dingbats)(,|-|$)/;
/** The ZapfDingbats font's glyph names (`a1` to `a191`), which the Adobe Glyph List leaves to its own list. */
const DINGBATS_NAME = /^a([1-9]\d?|1[0-8]\d|19[01])$/;
/** The Symbol font's glyph names that the Adobe Glyph List does not hold. */
const SYMBOL_NAMES = new Set(
  `registersans copyrightsans trademarksans registerserif copyrightserif trademarkserif bracketlefttp
bracketleftex bracketleftbt bracketrighttp bracketrightex bracketrightbt bracelefttp braceleftmid braceleftbt
bracerighttp bracerightmid bracerightbt braceex parenlefttp parenleftex parenleftbt parenrighttp parenrightex
parenrightbt integraltp integralex integralbt arrowvertex arrowhorizex radicalex apple theta1 Upsilon1 phi1
omega1`.split(/\s+/),
);

/** A glyph name readers map to Unicode: by the Adobe Glyph List, or as a Symbol or ZapfDingbats glyph. */
const nameMapsToUnicode = (name: string) =>
  glyphNameMapsToUnicode(name) || SYMBOL_NAMES.has(name) || DINGBATS_NAME.test(name);
const SUBSET_TAG = /^[A-Z]{6}\+/;
/** The character collections whose Unicode CMaps readers hold (ISO 32000-1 9.10.2, step d). */
const UNICODE_COLLECTIONS = new Set(['GB1', 'CNS1', 'Japan1', 'Korea1']);

function distinctBytes(strings: Uint8Array[]): { code: number; cid: number }[] {
  const seen = new Set<number>();
  for (const s of strings) for (const b of s) seen.add(b);
  return [...seen].sort((a, b) => a - b).map((code) => ({ code, cid: -1 }));
}

function simpleGlyphs(cos: CosFile, font: PdfDict, subtype: string | undefined): GlyphReader {
  const descriptor = cos.dict(font, 'FontDescriptor');
  const embedded = embeddedProgram(cos, descriptor);
  const program = embedded ? readProgram(cos, embedded) : undefined;
  const flags = cos.get(descriptor, 'Flags');
  const symbolic = typeof flags === 'number' && (flags & 4) !== 0;
  const encoding = cos.get(font, 'Encoding');
  const differences = differencesOf(cos, encoding);
  const baseName =
    nameOf(encoding) ?? (isDict(encoding) ? nameOf(cos.get(encoding, 'BaseEncoding')) : undefined);
  const base = namedEncoding(baseName);
  const first = cos.get(font, 'FirstChar');
  const widths = cos.array(font, 'Widths');
  const charProcs = cos.dict(font, 'CharProcs');
  const toUnicode = toUnicodeOf(cos, font);
  const baseFont = (nameOf(cos.get(font, 'BaseFont')) ?? '').replace(SUBSET_TAG, '');
  const ownNames = SYMBOL_SETS.test(baseFont);
  // a standard font drawn without a program, and without a base encoding named, is read by its built-in
  // encoding where /Differences do not name the code (ISO 32000-1 9.6.6.1)
  const builtIn = !embedded && baseName === undefined && subtype === 'Type1' && isStandard14(baseFont);
  const facts = (code: number): GlyphFacts => {
    const name =
      differences.get(code) ??
      nameFromBase(code, base, baseName, subtype, symbolic, program) ??
      (code === 0 && subtype === 'TrueType' ? '.notdef' : undefined);
    const at = typeof first === 'number' ? code - first : -1;
    const width = at >= 0 && at < widths.length ? cos.resolve(widths[at]) : undefined;
    let programName: string | undefined;
    const facts: GlyphFacts = {
      fontSubtype: subtype,
      code,
      cid: undefined,
      name,
      present: undefined,
      widthInDictionary: typeof width === 'number' ? width : undefined,
      widthInProgram: undefined,
      get toUnicodeUnits() {
        return toUnicode()?.unicodeOf(code);
      },
      get unicodeBy() {
        if (this.toUnicodeUnits !== undefined) return 'ToUnicode';
        const named = name ?? programName;
        if (named !== undefined && (ownNames || nameMapsToUnicode(named))) return 'glyph name';
        // a code /Differences do not name is the built-in encoding's, whose names all map
        return builtIn && !differences.has(code) ? 'glyph name' : undefined;
      },
    };
    if (subtype === 'Type3') {
      const named = differences.get(code);
      if (named !== undefined && charProcs) facts.present = charProcs.has(named);
      return facts;
    }
    if (!program) return facts;
    const found = simpleLookup(code, name, subtype, symbolic, program, encoding !== undefined);
    if (found === undefined) return facts;
    // a code the encoding names no glyph for is named by the program's glyph (a TrueType `post` name)
    if (name === undefined && found.gid) programName = program.sfnt?.nameOfGid(found.gid);
    // every program holds .notdef; code 0 is taken as present, since it cannot be told from a missing glyph
    facts.present = code === 0 || found.present;
    if (found.present) facts.widthInProgram = found.width;
    return facts;
  };
  return { decode: distinctBytes, facts };
}

function differencesOf(cos: CosFile, encoding: PdfValue | undefined): Map<number, string> {
  const map = new Map<number, string>();
  const list = isDict(encoding) ? cos.get(encoding, 'Differences') : undefined;
  if (!Array.isArray(list)) return map;
  let code = -1;
  for (const entry of list.slice(0, 4096)) {
    const value = cos.resolve(entry);
    if (typeof value === 'number') code = value;
    else if (nameOf(value) !== undefined && code >= 0 && code < 256) map.set(code++, nameOf(value)!);
  }
  return map;
}

/** A code's name by the base encoding, or, without one, the program's built-in encoding. */
function nameFromBase(
  code: number,
  base: readonly string[] | undefined,
  baseName: string | undefined,
  subtype: string | undefined,
  symbolic: boolean,
  program: ReadProgram | undefined,
): string | undefined {
  // a code a named encoding leaves out is .notdef; WinAnsiEncoding's unused codes above 32 are the bullet
  // (ISO 32000-1, Annex D.2, note 6)
  if (base) return base[code] || (baseName === 'WinAnsiEncoding' && code > 32 ? 'bullet' : '.notdef');
  if (baseName !== undefined) return undefined;
  if (subtype === 'Type1' || subtype === 'MMType1') {
    const type1 = program?.type1;
    if (type1) return type1.standardEncoding ? STANDARD[code] || undefined : type1.encoding?.get(code);
    const cff = program?.cff;
    const gid = cff?.encoding?.get(code);
    if (cff?.names && gid !== undefined) return cff.names[gid];
    return undefined;
  }
  // a non-symbolic TrueType font without a base encoding is read by StandardEncoding (ISO 32000-1 9.6.6.4)
  if (subtype === 'TrueType' && !symbolic) return STANDARD[code] || undefined;
  return undefined;
}

let unicodeOfName: Map<string, number[]> | undefined;

/** A glyph name's Unicode values: by the Adobe Glyph List (some names have two), or `uniXXXX` / `uXXXX[XX]`. */
function unicodesOf(name: string): number[] {
  unicodeOfName ??= new Map(
    ADOBE_GLYPH_LIST.split(';').map((entry) => {
      const [glyph, codes] = entry.split(' ');
      return [glyph!, codes!.split(',').map((hex) => Number.parseInt(hex, 16))] as [string, number[]];
    }),
  );
  const known = unicodeOfName.get(name);
  if (known !== undefined) return known;
  const uni = /^uni([0-9A-F]{4})$/.exec(name) ?? /^u([0-9A-F]{4,6})$/.exec(name);
  return uni ? [Number.parseInt(uni[1]!, 16)] : [];
}

/**
 * Finds a simple font's glyph in its program: a Type 1 or CFF program by name; a TrueType program through its
 * `cmap` as ISO 32000-1 9.6.6.4 says (a non-symbolic font with an /Encoding by the name's Unicode value in
 * (3,1), or its Mac OS Roman code in (1,0), then by the `post` table's names; a symbolic one, or one without
 * /Encoding, by the code in (3,0), also at 0xF000, 0xF100, 0xF200, or in (1,0)). Undefined when the lookup
 * cannot be made.
 */
function simpleLookup(
  code: number,
  name: string | undefined,
  subtype: string | undefined,
  symbolic: boolean,
  program: ReadProgram,
  encoded: boolean,
): { present: boolean; width: number | undefined; gid?: number } | undefined {
  if (program.type1) {
    if (name === undefined) return undefined;
    const present = program.type1.names.includes(name);
    return { present, width: program.type1.widths.get(name) };
  }
  if (program.cff) {
    const names = program.cff.names;
    if (!names) return undefined;
    const gid = name === undefined ? program.cff.encoding?.get(code) : names.indexOf(name);
    if (gid === undefined) return undefined;
    return { present: gid > 0, width: gid > 0 ? program.cff.width(gid) : undefined };
  }
  const sfnt = program.sfnt;
  if (!sfnt || subtype !== 'TrueType') return undefined;
  let gid: number | undefined;
  const encodings = sfnt.cmapEncodings;
  if (!symbolic && encoded) {
    const unicodes = name === undefined ? [] : unicodesOf(name);
    const mac = name === undefined ? undefined : macRomanCode(name);
    if (encodings.includes('3,1'))
      for (const unicode of unicodes) {
        gid = sfnt.lookup('3,1', unicode);
        if (gid) break;
      }
    if (!gid && encodings.includes('1,0') && mac !== undefined) gid = sfnt.lookup('1,0', mac);
    // a name no cmap maps may still name a glyph in the `post` table
    if (!gid && name !== undefined) gid = sfnt.gidOfName(name) ?? gid;
    // a glyph name (not .notdef) that neither the cmap nor the `post` table leads to has no glyph
    if (gid === undefined && (name === undefined || name === '.notdef')) return undefined;
  } else {
    if (encodings.includes('3,0'))
      for (const offset of [0, 0xf000, 0xf100, 0xf200]) {
        gid = sfnt.lookup('3,0', offset + code);
        if (gid) break;
      }
    else if (encodings.includes('1,0')) gid = sfnt.lookup('1,0', code);
  }
  // a program without a cmap table says nothing of its codes; one without the subtables above maps none
  if (encodings.length === 0) return undefined;
  gid ??= 0;
  const present = gid > 0 && (sfnt.glyphCount === undefined || gid < sfnt.glyphCount);
  const advance = present ? sfnt.advance(gid) : undefined;
  return {
    present,
    width: advance === undefined || !sfnt.unitsPerEm ? undefined : (advance * 1000) / sfnt.unitsPerEm,
    gid,
  };
}

function compositeGlyphs(cos: CosFile, font: PdfDict): GlyphReader {
  const encoding = cos.get(font, 'Encoding');
  const cmapName = nameOf(encoding);
  const decodeOne =
    cmapName === 'Identity-H' || cmapName === 'Identity-V'
      ? identityDecode
      : isStream(encoding)
        ? cmapProgram(cos, encoding)?.decode
        : undefined;
  // a predefined CMap other than Identity is not held here: its codes cannot be read
  if (!decodeOne) return NO_GLYPHS;
  const cidFont = cos.resolve(cos.array(font, 'DescendantFonts')[0]);
  if (!isDict(cidFont)) return NO_GLYPHS;
  const subtype = nameOf(cos.get(cidFont, 'Subtype'));
  const embedded = embeddedProgram(cos, cos.dict(cidFont, 'FontDescriptor'));
  const program = embedded ? readProgram(cos, embedded) : undefined;
  const widthOf = cidWidths(cos, cidFont);
  const gidOf = cidToGid(cos, cidFont, subtype, program);
  const toUnicode = toUnicodeOf(cos, font);
  const byCollection = unicodeCollection(cos, encoding, cmapName, cidFont);
  const decode = (strings: Uint8Array[]) => {
    const seen = new Map<number, number>();
    for (const s of strings)
      for (const { code, cid } of decodeOne(s)) {
        if (seen.size >= MAX_CODES) break;
        seen.set(code, cid);
      }
    return [...seen].map(([code, cid]) => ({ code, cid }));
  };
  const facts = (code: number, cid: number): GlyphFacts => {
    const gid = gidOf?.(cid);
    return {
      fontSubtype: 'Type0',
      code,
      cid,
      name: cid === 0 || gid === 0 ? '.notdef' : undefined,
      present: gid === undefined ? undefined : code === 0 || gid > 0,
      widthInDictionary: widthOf(cid),
      widthInProgram: gid ? programWidth(program!, gid) : undefined,
      get toUnicodeUnits() {
        return toUnicode()?.unicodeOf(code);
      },
      get unicodeBy() {
        if (this.toUnicodeUnits !== undefined) return 'ToUnicode';
        return byCollection ? 'collection' : undefined;
      },
    };
  };
  return { decode, facts };
}

/**
 * Whether a composite font's codes map to Unicode through its character collection: its CMap's (a predefined
 * one's by name, an embedded one's by its CIDSystemInfo), or, with an Identity CMap, its CIDFont's.
 */
function unicodeCollection(
  cos: CosFile,
  encoding: PdfValue | undefined,
  cmapName: string | undefined,
  cidFont: PdfDict,
): boolean {
  const known = (system: { registry: string | undefined; ordering: string | undefined }) =>
    system.registry === 'Adobe' && UNICODE_COLLECTIONS.has(system.ordering ?? '');
  const systemOf = (dict: PdfDict | undefined) => {
    const info = cos.dict(dict, 'CIDSystemInfo');
    return {
      registry: textString(cos.get(info, 'Registry')),
      ordering: textString(cos.get(info, 'Ordering')),
    };
  };
  if (cmapName !== undefined && !/^Identity-[HV]$/.test(cmapName) && known(predefinedSystem(cmapName)))
    return true;
  if (isStream(encoding) && known(systemOf(encoding.stream.dict))) return true;
  return known(systemOf(cidFont));
}

function identityDecode(bytes: Uint8Array): { code: number; cid: number }[] {
  const out: { code: number; cid: number }[] = [];
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    const code = (bytes[i]! << 8) | bytes[i + 1]!;
    out.push({ code, cid: code });
  }
  return out;
}

/** A CIDFont's width of a CID: by `/W`, else `/DW` (1000 when absent) (ISO 32000-1 9.7.4.3). */
function cidWidths(cos: CosFile, cidFont: PdfDict): (cid: number) => number {
  const dw = cos.get(cidFont, 'DW');
  const fallback = typeof dw === 'number' ? dw : 1000;
  const map = new Map<number, number>();
  const ranges: [number, number, number][] = [];
  const w = cos.array(cidFont, 'W').map((v) => cos.resolve(v));
  for (let i = 0; i < w.length && map.size < 100_000;) {
    const first = w[i];
    const next = w[i + 1];
    if (typeof first !== 'number') break;
    if (Array.isArray(next)) {
      next.forEach((v, k) => {
        const value = cos.resolve(v);
        if (typeof value === 'number') map.set(first + k, value);
      });
      i += 2;
    } else if (typeof next === 'number' && typeof w[i + 2] === 'number') {
      ranges.push([first, next, w[i + 2] as number]);
      i += 3;
    } else break;
  }
  return (cid) => {
    const own = map.get(cid);
    if (own !== undefined) return own;
    for (const [low, high, width] of ranges) if (cid >= low && cid <= high) return width;
    return fallback;
  };
}

/** The glyph id of a CID in the CIDFont's program; undefined when the program or the mapping is unknown. */
function cidToGid(
  cos: CosFile,
  cidFont: PdfDict,
  subtype: string | undefined,
  program: ReadProgram | undefined,
): ((cid: number) => number) | undefined {
  if (!program) return undefined;
  if (subtype === 'CIDFontType2' && program.sfnt) {
    const count = program.sfnt.glyphCount;
    const map = cos.get(cidFont, 'CIDToGIDMap');
    const inRange = (gid: number) => (count === undefined || gid < count ? gid : 0);
    if (isStream(map)) {
      const bytes = cos.streamBytes(map);
      if (!bytes) return undefined;
      return (cid) => inRange(2 * cid + 1 < bytes.length ? (bytes[2 * cid]! << 8) | bytes[2 * cid + 1]! : 0);
    }
    return (cid) => inRange(cid);
  }
  if (subtype === 'CIDFontType0' && program.cff) {
    const cff = program.cff;
    if (cff.gidOfCid) return (cid) => cff.gidOfCid!.get(cid) ?? 0;
    return (cid) => (cid < cff.glyphCount ? cid : 0);
  }
  return undefined;
}

function programWidth(program: ReadProgram, gid: number): number | undefined {
  if (program.cff) return program.cff.width(gid);
  const sfnt = program.sfnt;
  if (!sfnt?.unitsPerEm) return undefined;
  const advance = sfnt.advance(gid);
  return advance === undefined ? undefined : (advance * 1000) / sfnt.unitsPerEm;
}
