import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A graphics state with /TR2 /Default, and one with /TR2 /Identity (shared with ISO 19005-2 6.2.5-2). */
export const tr2Pair: FixturePair = {
  pass: (part) => pdfaFile(part, graphicsState('/TR2 /Default')),
  fail: (part) => pdfaFile(part, graphicsState('/TR2 /Identity')),
};

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/LW 1')),
    fail: (part) => pdfaFile(part, graphicsState('/TR /Identity')),
  },
  2: tr2Pair,
};
