import type { FixturePairs } from '../../fixtures.js';
import { type0WithUnicode, uaFontFile } from './ua-fonts.js';

const CID_FONT =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]';

export const fixtures: FixturePairs = {
  1: {
    pass: () => uaFontFile(type0WithUnicode({})),
    fail: () => uaFontFile(type0WithUnicode({ cidFont: CID_FONT.replace('/CIDToGIDMap /Identity ', '') })),
  },
};
