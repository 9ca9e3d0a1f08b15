import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.11 Embedded files. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
