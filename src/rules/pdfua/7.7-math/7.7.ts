import { rule, type Reason, type Rule } from '../../rule.js';
import { undescribedFault } from '../7.3-graphics/7.3.js';

/** ISO 14289-1, 7.7 Mathematical expressions. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.7',
    test: 1,
    object: 'struct_element',
    check: 'formulas_alt_text',
    says: 'A Formula element has alternate text (/Alt) or replacement text (/ActualText)',
    fault: undescribedFault('Formula'),
    fix: 'give the Formula an /Alt that reads the expression out (for example "x squared plus one"), or /ActualText',
  }),
];

export const reasons: Reason[] = [];
