import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, ref, stream } from '../../../pdfa-file.js';

const CMYK_SQUARE = '0 0 0 1 k\n10 10 100 100 re\nf\n';
const GRAY_SQUARE = '0.5 g\n10 10 100 100 re\nf\n';

export const fixtures: FixturePairs = {
  2: {
    pass: (part) => pdfaFile(part),
    // the default page paints in DeviceRGB; without an output intent nothing calibrates it
    fail: (part) => pdfaFile(part, { noOutputIntent: true }),
  },
  3: {
    // a DefaultCMYK of an ICC CMYK profile replaces the DeviceCMYK
    pass: (part) =>
      pdfaFile(part, {
        content: CMYK_SQUARE,
        resources: `/ColorSpace << /DefaultCMYK [/ICCBased ${ref(0)}] >>`,
        objects: [stream('/N 4', iccProfile({ colorSpace: 'CMYK', deviceClass: 'prtr' }))],
      }),
    // DeviceCMYK under an RGB output intent
    fail: (part) => pdfaFile(part, { content: CMYK_SQUARE }),
  },
  4: {
    // DeviceGray under an output intent of any colour space
    pass: (part) => pdfaFile(part, { content: GRAY_SQUARE }),
    fail: (part) => pdfaFile(part, { content: GRAY_SQUARE, noOutputIntent: true }),
  },
};
