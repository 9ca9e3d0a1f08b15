import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.3 Annotations: tab order. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
