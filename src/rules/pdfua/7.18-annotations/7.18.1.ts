import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.1 Annotations: general. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
