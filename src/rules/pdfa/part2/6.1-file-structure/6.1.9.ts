import { rule, type Reason, type Rule } from '../../../rule.js';
import { frameFault } from '../../part1/6.1-file-structure/6.1.8.js';

/** ISO 19005-2 and -3, 6.1.9 Indirect objects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.9',
    test: 1,
    object: 'indirect_object',
    check: 'object_syntax',
    says: 'An indirect object’s header has single white-space separators, and `N G obj` and `endobj` each stand on their own line',
    fault: frameFault,
    fix: 'save the file again with a PDF/A writer (it writes each object on lines of its own)',
  }),
];
export const reasons: Reason[] = [];
