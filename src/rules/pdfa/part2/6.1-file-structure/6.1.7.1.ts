import type { Reason, Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { streamObjectRules } from '../../part1/6.1-file-structure/6.1.7.js';

/** ISO 19005-2 and -3, 6.1.7.1 Stream objects. */
export const rules: Rule[] = streamObjectRules(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.1.7.1'));
export const reasons: Reason[] = [];
