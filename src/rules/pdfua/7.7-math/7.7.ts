import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.7 Mathematical expressions. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
