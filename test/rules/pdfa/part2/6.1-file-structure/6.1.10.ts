import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, SQUARE } from '../../../pdfa-file.js';

const image = (filter: string) =>
  `${SQUARE}q 10 0 0 10 0 0 cm\nBI /W 1 /H 1 /BPC 8 /CS /RGB ${filter} ID abc EI\nQ\n`;

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { content: image('/F /AHx').replace('ID abc EI', 'ID 616263> EI') }),
    // JPX is for image XObjects only
    fail: (part) => pdfaFile(part, { content: image('/F /JPXDecode') }),
  },
};
