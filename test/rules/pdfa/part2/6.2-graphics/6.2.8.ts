import type { FixturePairs } from '../../../fixtures.js';
import { drawing, image } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { alternatesPair, maskBitsPair, opiPair } from '../../part1/6.2-graphics/6.2.4.js';

const inline = (entries: string) =>
  `q 10 0 0 10 20 20 cm\nBI /W 1 /H 1 /CS /RGB /BPC 8 ${entries} ID \xff\x00\x00\nEI\nQ\n`;

export const fixtures: FixturePairs = {
  1: alternatesPair,
  2: opiPair,
  3: {
    pass: (part) => pdfaFile(part, { content: inline('/I false') }),
    // an inline image: the I key
    fail: (part) => pdfaFile(part, { content: inline('/I true') }),
  },
  4: {
    // 16 bits per component is allowed from PDF/A-2 on
    pass: (part) => pdfaFile(part, drawing(image('/BitsPerComponent 16', '\xff\xff\x00\x00\x00\x00'))),
    fail: (part) =>
      pdfaFile(part, drawing(image('/BitsPerComponent 32', '\xff\xff\xff\xff' + '\x00'.repeat(8)))),
  },
  5: maskBitsPair,
};
