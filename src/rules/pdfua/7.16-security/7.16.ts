import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.16 Security. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
