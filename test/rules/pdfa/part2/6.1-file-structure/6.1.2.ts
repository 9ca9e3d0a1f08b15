import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { header: '%PDF-1.7\r\n%\xE2\xE3\xCF\xD3\n' }),
    // a version PDF/A-2 does not allow
    fail: (part) => pdfaFile(part, { header: '%PDF-2.0\n%\xE2\xE3\xCF\xD3\n' }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    // three bytes above 127, then one below
    fail: (part) => pdfaFile(part, { header: '%PDF-1.7\n%\xE2\xE3\xCFa\n' }),
  },
};
