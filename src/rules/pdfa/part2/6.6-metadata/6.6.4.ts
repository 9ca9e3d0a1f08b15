import type { Reason, Rule } from '../../../rule.js';
import { identificationRules, partRule } from '../../part1/6.7-metadata/6.7.11.js';

/** ISO 19005-2 and -3, 6.6.4 Version and conformance level identification (part 2 or 3, as each part asks). */
export const rules: Rule[] = [
  partRule('ISO 19005-2', '6.6.4', 2),
  partRule('ISO 19005-3', '6.6.4', 3),
  ...identificationRules(
    ['ISO 19005-2', 'ISO 19005-3'],
    '6.6.4',
    ['A', 'B', 'U'],
    ['part', 'conformance', 'amd', 'corr'],
  ),
];
export const reasons: Reason[] = [];
