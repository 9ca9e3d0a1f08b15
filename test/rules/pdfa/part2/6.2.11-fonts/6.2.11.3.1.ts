import type { FixturePairs } from '../../../fixtures.js';
import { embeddedCMapFile } from '../../part1/6.3-fonts/6.3.3.1.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => embeddedCMapFile(part, '/Registry (Adobe) /Ordering (Identity) /Supplement 0'),
    // same collection, and the CMap's Supplement earlier than the CIDFont's 0: not possible below 0, so a
    // different Ordering
    fail: (part) => embeddedCMapFile(part, '/Registry (Adobe) /Ordering (GB1) /Supplement 0'),
  },
};
