import type { FixturePairs } from '../../../fixtures.js';
import { widthPair } from '../../part1/6.3-fonts/6.3.6.js';

export const fixtures: FixturePairs = { 1: widthPair };
