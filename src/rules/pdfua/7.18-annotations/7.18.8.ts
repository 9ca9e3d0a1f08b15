import type { Reason, Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.8 Annotations: PrinterMark. */
export const rules: Rule[] = [];

export const reasons: Reason[] = [];
