import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, stream } from '../../../pdfa-file.js';

/** Two output intents (objects 6 and 8); the second's profile is object 7 (the same) or object 9. */
const twoIntents = (sameProfile: boolean) =>
  pdfaFile(1, {
    noOutputIntent: true,
    catalog: '/OutputIntents [6 0 R 8 0 R]',
    objects: [
      `<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier (sRGB IEC61966-2.1) /DestOutputProfile ${sameProfile ? 7 : 9} 0 R >>`,
      stream('/N 3', iccProfile()),
    ],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfaFile(1),
    // an input (scanner) profile is no output condition
    fail: () => pdfaFile(1, { icc: iccProfile({ deviceClass: 'scnr' }) }),
  },
  2: { pass: () => twoIntents(true), fail: () => twoIntents(false) },
};
