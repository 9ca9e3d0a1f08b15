import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.10 Optional content. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
