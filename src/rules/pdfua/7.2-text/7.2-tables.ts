import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.2 Text: tables. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
