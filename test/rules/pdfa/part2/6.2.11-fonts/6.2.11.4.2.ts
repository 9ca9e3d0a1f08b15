import type { FixturePairs } from '../../../fixtures.js';
import { cidSubset, type1Subset } from '../../part1/6.3-fonts/6.3.5.js';

export const fixtures: FixturePairs = {
  // the program holds A and B
  1: {
    pass: (part) => type1Subset(part, ' /CharSet (/A/B)'),
    fail: (part) => type1Subset(part, ' /CharSet (/A)'),
  },
  // the program holds CIDs 1 and 2; the CIDSet lists 0 and 1
  2: { pass: (part) => cidSubset(part, 0xe0), fail: (part) => cidSubset(part, 0xc0) },
};
