import type { Reason, Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { hexStringRules } from '../../part1/6.1-file-structure/6.1.6.js';

/** ISO 19005-2 and -3, 6.1.6 String objects. */
export const rules: Rule[] = hexStringRules(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.1.6'));
export const reasons: Reason[] = [];
