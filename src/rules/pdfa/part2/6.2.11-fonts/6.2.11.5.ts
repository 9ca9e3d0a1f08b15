import type { Reason, Rule } from '../../../rule.js';
import { glyphWidthRule } from '../../part1/6.3-fonts/6.3.6.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-2 and -3, 6.2.11.5 Font metrics. */
export const rules: Rule[] = [glyphWidthRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.2.11.5')(1))];
export const reasons: Reason[] = [];
