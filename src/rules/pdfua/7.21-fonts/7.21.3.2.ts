import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.21.3.2 Fonts: CIDToGIDMap. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
