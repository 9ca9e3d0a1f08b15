import { rule, type Reason, type Rule } from '../../rule.js';
import { unseen } from './7.18.1.js';

/** ISO 14289-1, 7.18.2 Trap network annotations. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.2',
    test: 1,
    object: 'annotation',
    check: 'trapnet_annotations',
    says: 'There is no TrapNet annotation (a hidden one, or one outside the crop box, is let be)',
    fault: (a) => (a.subtype === 'TrapNet' && !unseen(a) ? 'it is a trap network annotation' : undefined),
    fix: 'remove the TrapNet annotation (trapping belongs to prepress, not to an accessible document)',
  }),
];

export const reasons: Reason[] = [];
