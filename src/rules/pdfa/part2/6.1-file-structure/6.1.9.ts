import type { Reason, Rule } from '../../../rule.js';
import { indirectObjectRule } from '../../part1/6.1-file-structure/6.1.8.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-2 and -3, 6.1.9 Indirect objects. */
export const rules: Rule[] = [indirectObjectRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.1.9')(1))];
export const reasons: Reason[] = [];
