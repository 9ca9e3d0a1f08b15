import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.4.1 Fonts: embedding. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
