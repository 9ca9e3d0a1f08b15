import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { identificationFixtures, otherPrefix } from '../../part1/6.7-metadata/6.7.11.js';

export const fixtures: FixturePairs = {
  ...identificationFixtures,
  7: { pass: (part) => pdfaFile(part), fail: (part) => otherPrefix(part, 'corr') },
};
