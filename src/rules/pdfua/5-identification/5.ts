import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 5 Version identification. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
