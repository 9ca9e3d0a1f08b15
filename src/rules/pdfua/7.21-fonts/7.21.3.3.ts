import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.3.3 Fonts: CMaps. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
