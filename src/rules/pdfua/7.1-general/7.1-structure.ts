import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.1 General: structure types and role mapping. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
