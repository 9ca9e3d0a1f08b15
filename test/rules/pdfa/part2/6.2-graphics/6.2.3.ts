import type { FixturePairs } from '../../../fixtures.js';
import { iccProfile, pdfaFile, stream } from '../../../pdfa-file.js';

/** A second output intent (object 8), a PDF/X one, with `entries` of its own. */
const twoIntents = (part: 1 | 2 | 3, entries: string, objects: Uint8Array[] = []) =>
  pdfaFile(part, {
    noOutputIntent: true,
    catalog: '/OutputIntents [6 0 R 8 0 R]',
    objects: [
      `<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier (sRGB IEC61966-2.1) ${entries} >>`,
      ...objects,
    ],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { icc: iccProfile({ deviceClass: 'scnr' }) }),
  },
  2: {
    pass: (part) => twoIntents(part, '/DestOutputProfile 7 0 R'),
    fail: (part) => twoIntents(part, '/DestOutputProfile 9 0 R', [stream('/N 3', iccProfile())]),
  },
  3: {
    pass: (part) => twoIntents(part, '/DestOutputProfile 7 0 R'),
    fail: (part) =>
      twoIntents(
        part,
        '/DestOutputProfile 7 0 R /DestOutputProfileRef << /URLs [(http://example.com/p.icc)] >>',
      ),
  },
};
