import type { FixturePairs } from '../../../fixtures.js';
import { fontPage } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { fontTypeFixtures } from '../../part1/6.3-fonts/6.3.2.js';

export const fixtures: FixturePairs = {
  ...fontTypeFixtures,
  // OpenType is allowed here; a subtype no font file has is not
  7: {
    pass: (part) => pdfaFile(part, fontPage({ programEntries: '/FontFile2 /Subtype /OpenType' })),
    fail: (part) => pdfaFile(part, fontPage({ programEntries: '/FontFile2 /Subtype /Type42' })),
  },
};
