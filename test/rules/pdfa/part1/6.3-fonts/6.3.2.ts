import type { FixturePairs } from '../../../fixtures.js';
import { fontPage } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

const FONT =
  '/Type /Font /Subtype /TrueType /BaseFont /Fixture /FirstChar 65 /LastChar 66 /Widths [600 700] /Encoding /WinAnsiEncoding';
const pass = (part: 1 | 2 | 3) => pdfaFile(part, fontPage({}));
const withFont = (part: 1 | 2 | 3, font: string) => pdfaFile(part, fontPage({ font }));

/** Shared with ISO 19005-2 6.2.11.2; test 7 differs by part. */
export const fontTypeFixtures: FixturePairs = {
  1: { pass, fail: (part) => withFont(part, FONT.replace('/Type /Font', '/Type /Fnt')) },
  // a subtype no font has (other rules then read it as no font they know)
  2: { pass, fail: (part) => withFont(part, FONT.replace('/TrueType', '/TrueTypeX')) },
  3: { pass, fail: (part) => withFont(part, FONT.replace('/BaseFont /Fixture ', '')) },
  4: { pass, fail: (part) => withFont(part, FONT.replace('/FirstChar 65 ', '')) },
  5: { pass, fail: (part) => withFont(part, FONT.replace('/LastChar 66 ', '')) },
  6: { pass, fail: (part) => withFont(part, FONT.replace('[600 700]', '[600]')) },
};

export const fixtures: FixturePairs = {
  ...fontTypeFixtures,
  // PDF 1.4 knows no OpenType font file
  7: { pass, fail: (part) => pdfaFile(part, fontPage({ programEntries: '/FontFile2 /Subtype /OpenType' })) },
};
