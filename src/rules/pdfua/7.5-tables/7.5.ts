import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.5 Tables. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
