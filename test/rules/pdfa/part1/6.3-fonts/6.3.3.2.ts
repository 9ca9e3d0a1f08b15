import type { FixturePairs } from '../../../fixtures.js';
import { type0Page } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

const CID_FONT =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, type0Page({})),
    fail: (part) => pdfaFile(part, type0Page({ cidFont: CID_FONT.replace('/CIDToGIDMap /Identity ', '') })),
  },
};
