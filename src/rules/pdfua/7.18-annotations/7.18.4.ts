import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.4 Annotations: widgets. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
