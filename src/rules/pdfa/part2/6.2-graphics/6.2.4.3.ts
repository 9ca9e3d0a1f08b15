import type { Reason, Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { deviceColorRules } from '../../part1/6.2-graphics/6.2.3.3.js';

/** ISO 19005-2 and -3, 6.2.4.3 Uncalibrated (device) colour spaces. */
export const rules: Rule[] = deviceColorRules(
  clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.2.4.3'),
  2,
  'PDF/A',
);
export const reasons: Reason[] = [];
