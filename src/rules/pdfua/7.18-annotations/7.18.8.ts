import { rule, type Reason, type Rule } from '../../rule.js';
import { holderTypes, unseen } from './7.18.1.js';

/** ISO 14289-1, 7.18.8 PrinterMark annotations. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.8',
    test: 1,
    object: 'annotation',
    check: 'printer_marks',
    says: 'A PrinterMark annotation is an artifact: no structure element holds it',
    fault: (a) =>
      a.subtype !== 'PrinterMark' || unseen(a) || a.enclosingElements.length === 0
        ? undefined
        : `it is in the structure tree (in ${holderTypes(a).join(' and ')})`,
    fix: 'take the PrinterMark annotation out of the structure tree (remove its object reference and /StructParent): it is an artifact',
  }),
];

export const reasons: Reason[] = [];
