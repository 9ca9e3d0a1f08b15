import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.4.2 Fonts: subsets. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
