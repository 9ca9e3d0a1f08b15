import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.2.6 Reference XObjects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.6',
    test: 1,
    object: 'form',
    check: 'form_xobjects',
    says: 'No form XObject is a reference XObject (a Ref entry)',
    // the forms the pages draw, as veraPDF reads the clause
    fault: (form) => (form.drawn && form.hasRef ? 'a /Ref entry (a reference XObject)' : undefined),
    fix: 'embed the referenced page as an ordinary form XObject and remove the /Ref entry',
  }),
];
export const reasons: Reason[] = [];
