import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 6.2 Tagged PDF (MarkInfo). */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
