import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.2.7 PostScript XObjects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.7',
    test: 1,
    object: 'xobject',
    check: 'form_xobjects',
    says: 'No XObject is a PostScript XObject (Subtype PS)',
    // the XObjects the pages draw, as veraPDF reads the clause
    fault: (xobject) => (xobject.drawn && xobject.subtype === 'PS' ? 'a PostScript XObject' : undefined),
    fix: 'remove the PostScript XObject and the Do operators that paint it',
  }),
];
export const reasons: Reason[] = [];
