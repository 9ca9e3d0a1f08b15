import type { FixturePairs } from '../../../fixtures.js';
import { fixtures as part1 } from '../../part1/6.1-file-structure/6.1.4.js';

export const fixtures: FixturePairs = { 2: part1[2]! };
