import type { FixturePairs } from '../../fixtures.js';
import { type0WithUnicode, uaFontFile } from './ua-fonts.js';

export const fixtures: FixturePairs = {
  1: {
    pass: () => uaFontFile(type0WithUnicode({})),
    // CID 0 is the .notdef glyph, even in rendering mode 3
    fail: () => uaFontFile(type0WithUnicode({ text: '<0001> Tj 3 Tr <0000> Tj' })),
  },
};
