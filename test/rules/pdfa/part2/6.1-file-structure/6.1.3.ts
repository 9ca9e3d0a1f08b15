import type { FixturePairs } from '../../../fixtures.js';
import { fixtures as part1 } from '../../part1/6.1-file-structure/6.1.3.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    // an /ID that is no pair of file identifiers
    fail: (part) => pdfaFile(part, { noId: true, trailer: '/ID 12' }),
  },
  2: part1[2]!,
  3: part1[3]!,
};
