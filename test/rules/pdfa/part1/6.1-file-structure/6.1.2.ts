import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    // one byte of white space before the header
    fail: (part) => pdfaFile(part, { header: ' %PDF-1.4\n%\xE2\xE3\xCF\xD3\n' }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    // the comment is there, in bytes below 128
    fail: (part) => pdfaFile(part, { header: '%PDF-1.4\n%abcd\n' }),
  },
};
