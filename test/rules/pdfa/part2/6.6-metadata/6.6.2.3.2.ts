import type { FixturePairs } from '../../../fixtures.js';
import { extensionFixtures } from '../../part1/6.7-metadata/6.7.8.js';

export const fixtures: FixturePairs = { 1: extensionFixtures[0]! };
