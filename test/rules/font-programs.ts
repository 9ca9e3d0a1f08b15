import { CFF_STANDARD_STRINGS } from '../../src/pdf/cff-standard-strings.js';
import { latin1, stream, type PdfaEdits } from './pdfa-file.js';

/**
 * Minimal font programs written in code for the fonts rules' fixtures (no font file is read): a TrueType
 * program with the tables the rules read (`cmap`, `head`, `hhea`, `hmtx`, `maxp`, `loca`, `glyf`), glyphs
 * without contours, and a bare name-keyed CFF whose glyphs are only their widths. And the PDF objects of a
 * page that shows text with one font.
 */

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

class Bytes {
  private readonly parts: number[] = [];
  u8(...values: number[]): this {
    for (const v of values) this.parts.push(v & 0xff);
    return this;
  }
  u16(...values: number[]): this {
    for (const v of values) this.parts.push((v >> 8) & 0xff, v & 0xff);
    return this;
  }
  u32(...values: number[]): this {
    for (const v of values) this.parts.push((v >>> 24) & 0xff, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
    return this;
  }
  bytes(): Uint8Array {
    return new Uint8Array(this.parts);
  }
}

/** A `cmap` subtable: platform, encoding, and the codes it maps to glyph ids. */
export interface CmapSubtable {
  platform: number;
  encoding: number;
  map: Record<number, number>;
}

/** A TrueType program of `advances.length` glyphs (glyph 0 is .notdef), in units of `unitsPerEm`. */
export function trueTypeProgram(options: {
  advances: number[];
  cmaps: CmapSubtable[];
  unitsPerEm?: number;
}): Uint8Array {
  const count = options.advances.length;
  const head = new Bytes()
    .u32(0x00010000, 0x00010000, 0, 0x5f0f3cf5)
    .u16(0, options.unitsPerEm ?? 1000)
    .u32(0, 0, 0, 0)
    .u16(0, 0, 1000, 1000, 0, 8, 2, 1, 0)
    .bytes();
  const hhea = new Bytes()
    .u32(0x00010000)
    .u16(800, 0xff38, 0, 1000, 0, 0, 1000, 1, 0, 0, 0, 0, 0, 0, 0, count)
    .bytes();
  const maxp = new Bytes().u32(0x00005000).u16(count).bytes();
  const hmtx = new Bytes();
  for (const advance of options.advances) hmtx.u16(advance, 0);
  // every glyph but .notdef has a header (no contours), so that it counts as outlined
  const glyf = new Bytes();
  const loca = new Bytes().u32(0);
  let offset = 0;
  for (let gid = 0; gid < count; gid++) {
    if (gid > 0) {
      glyf.u16(0, 0, 0, 0, 0, 0);
      offset += 12;
    }
    loca.u32(offset);
  }
  const cmap = cmapTable(options.cmaps);
  return sfnt([
    ['cmap', cmap],
    ['glyf', glyf.bytes()],
    ['head', head],
    ['hhea', hhea],
    ['hmtx', hmtx.bytes()],
    ['loca', loca.bytes()],
    ['maxp', maxp],
  ]);
}

/** Each subtable in format 6 (a trimmed table) over its codes' range. */
function cmapTable(subtables: CmapSubtable[]): Uint8Array {
  const bodies = subtables.map(({ map }) => {
    const codes = Object.keys(map).map(Number);
    const first = codes.length ? Math.min(...codes) : 0;
    const last = codes.length ? Math.max(...codes) : -1;
    const entries = last - first + 1;
    const body = new Bytes().u16(6, 10 + entries * 2, 0, first, entries);
    for (let code = first; code <= last; code++) body.u16(map[code] ?? 0);
    return body.bytes();
  });
  const header = new Bytes().u16(0, subtables.length);
  let at = 4 + subtables.length * 8;
  subtables.forEach((s, i) => {
    header.u16(s.platform, s.encoding).u32(at);
    at += bodies[i]!.length;
  });
  return concat([header.bytes(), ...bodies]);
}

function sfnt(tables: [string, Uint8Array][]): Uint8Array {
  const header = new Bytes().u32(0x00010000).u16(tables.length, 0, 0, 0);
  let at = 12 + tables.length * 16;
  const padded = tables.map(([, data]) => concat([data, new Uint8Array((4 - (data.length % 4)) % 4)]));
  tables.forEach(([tag, data], i) => {
    header.u8(...[...tag].map((c) => c.charCodeAt(0))).u32(0, at, data.length);
    at += padded[i]!.length;
  });
  return concat([header.bytes(), ...padded]);
}

/** A CFF INDEX of `items`. */
function cffIndex(items: Uint8Array[]): Uint8Array {
  if (items.length === 0) return new Uint8Array([0, 0]);
  const offsets = [1];
  for (const item of items) offsets.push(offsets.at(-1)! + item.length);
  const out = new Bytes().u16(items.length).u8(4);
  for (const o of offsets) out.u32(o);
  return concat([out.bytes(), ...items]);
}

/** A CFF DICT integer, always five bytes (so that offsets can be written before they are known). */
const int5 = (n: number) => new Bytes().u8(29).u32(n).bytes();

/** A Type 2 charstring number. */
function charNumber(n: number): number[] {
  if (n >= -107 && n <= 107) return [n + 139];
  return [28, (n >> 8) & 0xff, n & 0xff];
}

/**
 * A bare name-keyed CFF (FontFile3 /Type1C): `.notdef` and the glyphs named (standard strings only), each
 * charstring its width and `endchar`.
 */
export function cffProgram(glyphs: { name: string; width: number }[]): Uint8Array {
  const header = new Uint8Array([1, 0, 4, 4]);
  const names = cffIndex([latin1('Fixture')]);
  const strings = cffIndex([]);
  const globalSubrs = cffIndex([]);
  const charset = new Bytes().u8(0);
  for (const { name } of glyphs) {
    const sid = CFF_STANDARD_STRINGS.indexOf(name);
    if (sid < 0) throw new Error(`${name} is not a CFF standard string`);
    charset.u16(sid);
  }
  const charStrings = cffIndex([
    new Uint8Array([14]),
    ...glyphs.map(({ width }) => new Uint8Array([...charNumber(width), 14])),
  ]);
  // the Top DICT: charset, CharStrings, Private (size 0); its size is fixed by the five-byte integers
  const topSize = 6 + 6 + 11;
  const topIndexSize = 2 + 1 + 4 * 2 + topSize;
  const start = header.length + names.length + topIndexSize + strings.length + globalSubrs.length;
  const charsetAt = start;
  const charStringsAt = charsetAt + charset.bytes().length;
  const privateAt = charStringsAt + charStrings.length;
  const top = concat([
    int5(charsetAt),
    new Uint8Array([15]),
    int5(charStringsAt),
    new Uint8Array([17]),
    int5(0),
    int5(privateAt),
    new Uint8Array([18]),
  ]);
  return concat([header, names, cffIndex([top]), strings, globalSubrs, charset.bytes(), charStrings]);
}

/** The usual fixture program: .notdef, A and B, 600 and 700 wide, mapped by (3,1). */
export const AB_CMAP: CmapSubtable = { platform: 3, encoding: 1, map: { 0x41: 1, 0x42: 2 } };
export const abProgram = (cmaps: CmapSubtable[] = [AB_CMAP], advances = [500, 600, 700]) =>
  trueTypeProgram({ advances, cmaps });

/**
 * A page that shows `(AB)` (or `text`) with font F1: the font dictionary is object 8, its descriptor object 9,
 * its program object 10; `extra` objects follow from 11 (`ref(3)` on).
 */
export function fontPage(options: {
  font?: string;
  descriptor?: string;
  program?: Uint8Array | undefined;
  programEntries?: string;
  text?: string;
  extra?: (Uint8Array | string)[];
}): PdfaEdits {
  const font =
    options.font ??
    '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700] /Encoding /WinAnsiEncoding';
  const descriptor =
    options.descriptor ??
    '/Type /FontDescriptor /FontName /Fixture /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80';
  const program = 'program' in options ? options.program : abProgram();
  const fileKey = /FontFile[23]?/.exec(options.programEntries ?? '')?.[0];
  return {
    resources: '/Font << /F1 8 0 R >>',
    content: `BT /F1 12 Tf 10 10 Td ${options.text ?? '(AB) Tj'} ET\n`,
    objects: [
      `<< ${font} /FontDescriptor 9 0 R >>`,
      `<< ${descriptor}${program ? ` /${fileKey ?? 'FontFile2'} 10 0 R` : ''} >>`,
      program
        ? stream(
            (options.programEntries ?? '').replace(/\/FontFile[23]?\s*/, '') || `/Length1 ${program.length}`,
            program,
          )
        : '<< >>',
      ...(options.extra ?? []),
    ],
  };
}

/**
 * A page that shows `<00410042>` with a Type 0 font F1 (object 8) over a TrueType CIDFont (object 11) with
 * its descriptor (9) and program (10); `encoding` is the Type 0 font's /Encoding, `extra` objects from 12.
 */
export function type0Page(options: {
  encoding?: string;
  cidFont?: string;
  descriptor?: string;
  program?: Uint8Array;
  text?: string;
  extra?: (Uint8Array | string)[];
}): PdfaEdits {
  const program = options.program ?? abProgram([], [500, 600, 700]);
  return {
    resources: '/Font << /F1 8 0 R >>',
    content: `BT /F1 12 Tf 10 10 Td ${options.text ?? '<00010002> Tj'} ET\n`,
    objects: [
      `<< /Type /Font /Subtype /Type0 /BaseFont /Fixture /Encoding ${options.encoding ?? '/Identity-H'} /DescendantFonts [11 0 R] >>`,
      `<< ${options.descriptor ?? '/Type /FontDescriptor /FontName /Fixture /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80'} /FontFile2 10 0 R >>`,
      stream(`/Length1 ${program.length}`, program),
      `<< ${options.cidFont ?? '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]'} /FontDescriptor 9 0 R >>`,
      ...(options.extra ?? []),
    ],
  };
}

/** An embedded CMap program mapping two-byte codes to CIDs by identity (or as `mappings` says). */
export function cmapProgram(
  options: { name?: string; wmode?: number; mappings?: string; usecmap?: string } = {},
) {
  const name = options.name ?? 'Fixture-H';
  return `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
${options.usecmap ? `/${options.usecmap} usecmap\n` : ''}/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> def
/CMapName /${name} def
/CMapType 1 def
${options.wmode === undefined ? '' : `/WMode ${options.wmode} def\n`}1 begincodespacerange
<0000> <FFFF>
endcodespacerange
${options.mappings ?? '1 begincidrange\n<0000> <FFFF> 0\nendcidrange'}
endcmap
CMapName currentdict /CMap defineresource pop
end
end
`;
}
