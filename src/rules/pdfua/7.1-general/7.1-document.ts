import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.1 General: the document. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
