import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, SQUARE, stream } from '../../../pdfa-file.js';

const image = (filter: string) =>
  `${SQUARE}q 10 0 0 10 0 0 cm\nBI /W 1 /H 1 /BPC 8 /CS /RGB ${filter} ID abc EI\nQ\n`;

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: [stream('/Filter /ASCIIHexDecode', '616263>')] }),
    fail: (part) => pdfaFile(part, { objects: [stream('/Filter /LZWDecode', 'abc')] }),
  },
  2: {
    pass: (part) => pdfaFile(part, { content: image('') }),
    fail: (part) => pdfaFile(part, { content: image('/F /LZW') }),
  },
};
