import type { FixturePairs } from '../../../fixtures.js';
import { extensionFixtures } from '../../part1/6.7-metadata/6.7.8.js';

// ISO 19005-2 numbers the container 1 and the fields from 2 (ISO 19005-1: 2 and from 3)
export const fixtures: FixturePairs = Object.fromEntries(
  extensionFixtures.slice(1).map((pair, i) => [i + 1, pair]),
);
