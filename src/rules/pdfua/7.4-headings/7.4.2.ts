import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.4.2 Headings: numbered headings. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
