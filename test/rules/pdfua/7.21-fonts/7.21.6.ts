import type { FixturePairs } from '../../fixtures.js';
import { abProgram, fontPage, type CmapSubtable } from '../../font-programs.js';
import { toUnicodeStream, uaFontFile } from './ua-fonts.js';

const FONT = '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700]';
const SYMBOLIC =
  '/Type /FontDescriptor /FontName /Fixture /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80';
const UNICODE_CMAP: CmapSubtable = { platform: 3, encoding: 1, map: { 0x41: 1, 0x42: 2 } };
const SYMBOL_CMAP: CmapSubtable = { platform: 3, encoding: 0, map: { 0xf041: 1, 0xf042: 2 } };
const MAC_CMAP: CmapSubtable = { platform: 1, encoding: 0, map: { 0x41: 1, 0x42: 2 } };

const nonSymbolic = (encoding: string, cmaps = [UNICODE_CMAP]) =>
  uaFontFile(fontPage({ font: `${FONT} /Encoding ${encoding}`, program: abProgram(cmaps) }));

/** A symbolic TrueType font (with a ToUnicode CMap, object 11): its extra font entries and its program's cmap. */
const symbolic = (entries: string, cmaps = [SYMBOL_CMAP]) =>
  uaFontFile(
    fontPage({
      font: `${FONT} /ToUnicode 11 0 R${entries}`,
      descriptor: SYMBOLIC,
      program: abProgram(cmaps),
      extra: [toUnicodeStream([0x41, 0x42], ['0041', '0042'], 1)],
    }),
  );

export const fixtures: FixturePairs = {
  // a non-symbolic font whose program has only the symbolic (3,0) subtable
  1: {
    pass: () => nonSymbolic('/WinAnsiEncoding'),
    fail: () => nonSymbolic('/WinAnsiEncoding', [SYMBOL_CMAP]),
  },
  // Differences of Adobe Glyph List names are allowed; a name outside it is not
  2: {
    pass: () => nonSymbolic('<< /BaseEncoding /WinAnsiEncoding /Differences [65 /A /B] >>'),
    fail: () => nonSymbolic('<< /BaseEncoding /WinAnsiEncoding /Differences [65 /Afixture /B] >>'),
  },
  3: { pass: () => symbolic(''), fail: () => symbolic(' /Encoding /WinAnsiEncoding') },
  // several subtables are allowed with (3,0) among them, not without
  4: {
    pass: () => symbolic('', [SYMBOL_CMAP, MAC_CMAP]),
    fail: () => symbolic('', [MAC_CMAP, UNICODE_CMAP]),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.21.6-2 MacRomanEncoding': () => nonSymbolic('/MacRomanEncoding', [UNICODE_CMAP, MAC_CMAP]),
  '7.21.6-4 a symbolic program with one subtable other than (3,0)': () => symbolic('', [MAC_CMAP]),
};
