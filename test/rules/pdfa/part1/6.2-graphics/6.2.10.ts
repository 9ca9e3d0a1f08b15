import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, SQUARE } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    // an operator PDF does not define is allowed nowhere, not even inside BX/EX
    pass: () => pdfaFile(1, { content: `BX\n${SQUARE}EX\n` }),
    fail: () => pdfaFile(1, { content: `${SQUARE}BX\n1 2 Zz\nEX\n` }),
  },
};
