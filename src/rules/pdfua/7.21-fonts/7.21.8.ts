import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.8 Fonts: .notdef. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
