import type { Reason, Rule } from '../../../rule.js';

export const rules: Rule[] = [];
export const reasons: Reason[] = [];
