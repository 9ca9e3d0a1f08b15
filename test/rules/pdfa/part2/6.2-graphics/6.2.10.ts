import type { FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/**
 * No output intent, half-transparent fills, colour in an ICC-based space (the output intent's profile,
 * object 7, which the file keeps): the page's group must name the blending colour space.
 */
const transparentWithoutIntent = (part: 1 | 2 | 3, page?: string) =>
  pdfaFile(part, {
    noOutputIntent: true,
    resources: '/ColorSpace << /CS0 [/ICCBased 7 0 R] >> /ExtGState << /GS0 << /ca 0.5 >> >>',
    content: '/GS0 gs\n/CS0 cs 0 0 1 sc\n10 10 100 100 re\nf\n',
    ...(page ? { page } : {}),
  });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/BM /Multiply')),
    fail: (part) => pdfaFile(part, graphicsState('/BM /Dissolve')),
  },
  2: {
    pass: (part) => transparentWithoutIntent(part, '/Group << /S /Transparency /CS [/ICCBased 7 0 R] >>'),
    fail: (part) => transparentWithoutIntent(part),
  },
};
