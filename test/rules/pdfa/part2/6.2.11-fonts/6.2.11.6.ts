import type { FixturePairs } from '../../../fixtures.js';
import { abProgram, fontPage, type CmapSubtable } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { MAC_CMAP, SYMBOL_CMAP, symbolic } from '../../part1/6.3-fonts/6.3.7.js';

const FONT = '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700]';
const UNICODE_CMAP: CmapSubtable = { platform: 3, encoding: 1, map: { 0x41: 1, 0x42: 2 } };
const nonSymbolic = (part: 1 | 2 | 3, encoding: string, cmaps = [UNICODE_CMAP]) =>
  pdfaFile(part, fontPage({ font: `${FONT} /Encoding ${encoding}`, program: abProgram(cmaps) }));

export const fixtures: FixturePairs = {
  // a non-symbolic font whose program has only the symbolic (3,0) subtable
  1: {
    pass: (part) => nonSymbolic(part, '/WinAnsiEncoding'),
    fail: (part) => nonSymbolic(part, '/WinAnsiEncoding', [SYMBOL_CMAP]),
  },
  // Differences of Adobe Glyph List names are allowed; a name outside it is not
  2: {
    pass: (part) => nonSymbolic(part, '<< /BaseEncoding /WinAnsiEncoding /Differences [65 /A /B] >>'),
    fail: (part) => nonSymbolic(part, '<< /BaseEncoding /WinAnsiEncoding /Differences [65 /Afixture /B] >>'),
  },
  3: { pass: (part) => symbolic(part, ''), fail: (part) => symbolic(part, ' /Encoding /WinAnsiEncoding') },
  // several subtables are allowed with (3,0) among them, not without
  4: {
    pass: (part) => symbolic(part, '', [SYMBOL_CMAP, MAC_CMAP]),
    fail: (part) => symbolic(part, '', [MAC_CMAP, UNICODE_CMAP]),
  },
};
