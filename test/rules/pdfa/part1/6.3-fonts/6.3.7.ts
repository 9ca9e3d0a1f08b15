import type { FixturePairs } from '../../../fixtures.js';
import { abProgram, fontPage, type CmapSubtable } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

const FONT = '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700]';
const SYMBOLIC =
  '/Type /FontDescriptor /FontName /Fixture /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80';
export const SYMBOL_CMAP: CmapSubtable = { platform: 3, encoding: 0, map: { 0xf041: 1, 0xf042: 2 } };
export const MAC_CMAP: CmapSubtable = { platform: 1, encoding: 0, map: { 0x41: 1, 0x42: 2 } };

/** A symbolic TrueType font: its extra font entries and its program's cmap subtables. */
export const symbolic = (part: 1 | 2 | 3, entries: string, cmaps = [SYMBOL_CMAP]) =>
  pdfaFile(part, fontPage({ font: `${FONT}${entries}`, descriptor: SYMBOLIC, program: abProgram(cmaps) }));

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, fontPage({ font: `${FONT} /Encoding /MacRomanEncoding` })),
    fail: (part) =>
      pdfaFile(
        part,
        fontPage({ font: `${FONT} /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /A /B] >>` }),
      ),
  },
  2: { pass: (part) => symbolic(part, ''), fail: (part) => symbolic(part, ' /Encoding /WinAnsiEncoding') },
  3: { pass: (part) => symbolic(part, ''), fail: (part) => symbolic(part, '', [SYMBOL_CMAP, MAC_CMAP]) },
};
