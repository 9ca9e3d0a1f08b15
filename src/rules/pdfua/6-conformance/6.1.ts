import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 6.1 File format. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
