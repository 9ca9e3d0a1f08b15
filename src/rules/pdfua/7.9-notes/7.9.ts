import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.9 Notes and references. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
