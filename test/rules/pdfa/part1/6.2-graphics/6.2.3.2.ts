import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, ref, stream } from '../../../pdfa-file.js';

/** A page painted blue in an ICCBased colour space whose profile is object 8. */
const iccPainted = (profile: Uint8Array, components = 3) =>
  pdfaFile(1, {
    resources: `/ColorSpace << /CS0 [/ICCBased ${ref(0)}] >>`,
    content: '/CS0 cs 0 0 1 sc\n10 10 100 100 re\nf\n',
    objects: [stream(`/N ${components}`, profile)],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: () => iccPainted(iccProfile()),
    // an ICC version 4 profile, which PDF/A-1 does not know
    fail: () => iccPainted(iccProfile({ version: 0x04300000 })),
  },
  2: {
    pass: () => iccPainted(iccProfile()),
    // an RGB profile declared as four components
    fail: () => iccPainted(iccProfile(), 4),
  },
};
