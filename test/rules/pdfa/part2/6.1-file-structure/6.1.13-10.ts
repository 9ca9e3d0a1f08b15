import type { FixturePairs } from '../../../fixtures.js';
import { cidLimitPair } from '../../part1/6.1-file-structure/6.1.12-10.js';

export const fixtures: FixturePairs = { 10: cidLimitPair };
