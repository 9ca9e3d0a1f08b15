import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, ref, SQUARE, stream } from '../../../pdfa-file.js';

/** A page that draws a form XObject (object 8) painting in the ICCBased space CS0 (profile object 9). */
const formDrawn = (part: 1 | 2 | 3, formResources: boolean) =>
  pdfaFile(part, {
    resources: `/XObject << /Fm0 ${ref(0)} >> /ColorSpace << /CS0 [/ICCBased ${ref(1)}] >>`,
    content: '/Fm0 Do\n',
    objects: [
      stream(
        `/Type /XObject /Subtype /Form /BBox [0 0 200 200]${formResources ? ` /Resources << /ColorSpace << /CS0 [/ICCBased ${ref(1)}] >> >>` : ''}`,
        '/CS0 cs 0 0 1 sc\n10 10 100 100 re\nf\n',
      ),
      stream('/N 3', iccProfile()),
    ],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { content: `BX\n${SQUARE}EX\n` }),
    fail: (part) => pdfaFile(part, { content: `${SQUARE}BX\n1 2 Zz\nEX\n` }),
  },
  2: {
    pass: (part) => formDrawn(part, true),
    // the form names CS0, which only the page's resources have
    fail: (part) => formDrawn(part, false),
  },
};
