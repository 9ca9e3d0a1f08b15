import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.4.4 Headings: unnumbered headings. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
