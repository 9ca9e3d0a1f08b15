import type { FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) => pdfaFile(part, drawing(stream('/Type /XObject /Subtype /PS', '0 0 moveto'))),
  },
};
