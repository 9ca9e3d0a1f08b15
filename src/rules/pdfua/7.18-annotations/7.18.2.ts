import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.2 Annotations: TrapNet. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
