import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { catalog: '/Names << /AlternatePresentations << /Names [] >> >>' }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { page: '/PresSteps << /Type /NavNode >>' }),
  },
};
