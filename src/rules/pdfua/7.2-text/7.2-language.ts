import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.2 Text: natural language. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
