import type { FixturePairs } from '../../../fixtures.js';
import { fixtures as part1 } from '../../part1/6.3-fonts/6.3.3.2.js';

/** The same pair as ISO 19005-1 6.3.3.2-1: the CIDFont is embedded. */
export const fixtures: FixturePairs = part1;
