import type { FixturePairs } from '../../../fixtures.js';
import { type0Page } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, type0Page({})),
    // CID 0 is the .notdef glyph, even in rendering mode 3
    fail: (part) => pdfaFile(part, type0Page({ text: '3 Tr <00010000> Tj' })),
  },
};
