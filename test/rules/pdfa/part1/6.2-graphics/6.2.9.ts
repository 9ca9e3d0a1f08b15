import type { FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/RI /Perceptual')),
    fail: (part) => pdfaFile(part, graphicsState('/RI /Custom')),
  },
};
