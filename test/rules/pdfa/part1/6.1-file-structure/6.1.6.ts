import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: ['<ABCD 12>'] }),
    fail: (part) => pdfaFile(part, { objects: ['<ABC>'] }),
  },
  2: {
    pass: (part) => pdfaFile(part, { objects: ['<ab cd\n12>'] }),
    fail: (part) => pdfaFile(part, { objects: ['<ABCG>'] }),
  },
};
