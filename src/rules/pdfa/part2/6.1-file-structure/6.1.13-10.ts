import { rule, type Reason, type Rule } from '../../../rule.js';
import { cidLimitFault } from '../../part1/6.1-file-structure/6.1.12-10.js';

/** ISO 19005-2 and -3, 6.1.13 Implementation limits: the largest CID. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 10,
    object: 'cmap',
    check: 'implementation_limits',
    says: 'No CID is greater than 65,535',
    fault: cidLimitFault,
    fix: 'keep CIDs at 65,535 or below: embed the font with a CMap of smaller CIDs',
  }),
];
export const reasons: Reason[] = [];
