import type { Reason, Rule } from '../../../rule.js';
import { xrefKeywordRule } from '../../part1/6.1-file-structure/6.1.4.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-2 and -3, 6.1.4 Cross reference table. */
export const rules: Rule[] = [xrefKeywordRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.1.4')(2))];
export const reasons: Reason[] = [];
