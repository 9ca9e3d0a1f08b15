import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.7 Fonts: Unicode. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
