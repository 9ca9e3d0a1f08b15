import type { FixturePairs } from '../../fixtures.js';

export const fixtures: FixturePairs = {};
