import type { FixturePairs } from '../../../fixtures.js';
import { fontPage } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

const FONT =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Encoding /WinAnsiEncoding';

/** Shared with ISO 19005-2 6.2.11.5-1: the program makes B 700 wide. */
export const widthPair = {
  pass: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({ font: `${FONT} /Widths [600 700.8]` })),
  fail: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({ font: `${FONT} /Widths [600 650]` })),
};

export const fixtures: FixturePairs = { 1: widthPair };
