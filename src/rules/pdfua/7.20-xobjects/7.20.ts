import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.20 XObjects. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
