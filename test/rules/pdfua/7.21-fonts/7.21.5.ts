import type { FixturePairs } from '../../fixtures.js';
import { fontPage } from '../../font-programs.js';
import { uaFontFile } from './ua-fonts.js';

const FONT =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Encoding /WinAnsiEncoding';

export const fixtures: FixturePairs = {
  // the program makes B 700 wide; 700.8 is within 1/1000 em of it
  1: {
    pass: () => uaFontFile(fontPage({ font: `${FONT} /Widths [600 700.8]` })),
    fail: () => uaFontFile(fontPage({ font: `${FONT} /Widths [600 650]` })),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // invisible text is not rendered: its widths are not compared
  '7.21.5-1 an inconsistent width, shown invisibly': () =>
    uaFontFile(fontPage({ font: `${FONT} /Widths [600 650]`, text: '(A) Tj 3 Tr (B) Tj' })),
};
