import type { FixturePairs } from '../../../fixtures.js';
import { drawing, graphicsState, image } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/RI /AbsoluteColorimetric')),
    // an image's own rendering intent
    fail: (part) => pdfaFile(part, drawing(image('/Intent /Custom'))),
  },
};
