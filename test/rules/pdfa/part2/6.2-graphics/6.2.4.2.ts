import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, ref, stream } from '../../../pdfa-file.js';

/** A page painted blue in an ICCBased colour space whose profile is object 8. */
const iccPainted = (part: 1 | 2 | 3, profile: Uint8Array) =>
  pdfaFile(part, {
    resources: `/ColorSpace << /CS0 [/ICCBased ${ref(0)}] >>`,
    content: '/CS0 cs 0 0 1 sc\n10 10 100 100 re\nf\n',
    objects: [stream('/N 3', profile)],
  });

/** A page painted in ICCBased CMYK with overprinting on, in overprint mode `mode`. */
const overprinted = (part: 1 | 2 | 3, mode: number) =>
  pdfaFile(part, {
    resources: `/ColorSpace << /CS0 [/ICCBased ${ref(0)}] >> /ExtGState << /GS0 << /Type /ExtGState /OP true /op true /OPM ${mode} >> >>`,
    content: '/GS0 gs\n/CS0 cs 0 0 0 1 sc\n10 10 100 100 re\nf\n',
    objects: [stream('/N 4', iccProfile({ colorSpace: 'CMYK', deviceClass: 'prtr' }))],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => iccPainted(part, iccProfile({ version: 0x04300000 })),
    // an abstract profile paints nothing
    fail: (part) => iccPainted(part, iccProfile({ deviceClass: 'abst' })),
  },
  2: { pass: (part) => overprinted(part, 0), fail: (part) => overprinted(part, 1) },
};
