import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.6.2 Annotations: media. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
