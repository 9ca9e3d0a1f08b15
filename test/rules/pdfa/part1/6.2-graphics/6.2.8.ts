import type { FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/LW 1')),
    fail: (part) => pdfaFile(part, graphicsState('/TR /Identity')),
  },
  2: {
    pass: (part) => pdfaFile(part, graphicsState('/TR2 /Default')),
    fail: (part) => pdfaFile(part, graphicsState('/TR2 /Identity')),
  },
};
