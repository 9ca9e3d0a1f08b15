import type { FixturePairs } from '../../../fixtures.js';
import { drawing, jp2, jpxImage } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A page that draws a JPEG 2000 image, with no ColorSpace: the data's own colour specification counts. */
const jpx = (part: 1 | 2 | 3, options: Parameters<typeof jp2>[0] = {}) =>
  pdfaFile(part, drawing(jpxImage(jp2(options))));

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => jpx(part),
    fail: (part) => jpx(part, { components: 5 }),
  },
  2: {
    // two specifications, the one to use marked APPROX 1
    pass: (part) => jpx(part, { colr: [{ method: 1, enumCs: 16, approx: 1 }, { method: 2 }] }),
    fail: (part) =>
      jpx(part, {
        colr: [
          { method: 1, enumCs: 16 },
          { method: 1, enumCs: 16 },
        ],
      }),
  },
  3: {
    pass: (part) => jpx(part),
    fail: (part) => jpx(part, { colr: [{ method: 4 }] }),
  },
  4: {
    pass: (part) => jpx(part),
    fail: (part) => jpx(part, { colr: [{ method: 1, enumCs: 19 }] }),
  },
  5: {
    pass: (part) => jpx(part),
    // channels of different depths, told in a bpcc box
    fail: (part) => jpx(part, { bpc: 255, bpcc: true }),
  },
};
