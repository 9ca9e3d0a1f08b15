import type { FixturePairs } from '../../../fixtures.js';
import { embeddingPair } from '../../part1/6.3-fonts/6.3.4.js';
import { glyphPresencePair } from '../../part1/6.3-fonts/6.3.5.js';

export const fixtures: FixturePairs = { 1: embeddingPair, 2: glyphPresencePair };
