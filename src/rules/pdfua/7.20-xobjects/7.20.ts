import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 7.20 XObjects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.20',
    test: 1,
    object: 'form',
    check: 'xobjects',
    says: 'There is no reference XObject (a form XObject with /Ref)',
    fault: (f) => (f.hasRef ? 'it is a reference XObject (/Ref)' : undefined),
    fix: 'replace the reference XObject by the content it refers to (import the page it names as a form XObject without /Ref)',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.20',
    test: 2,
    object: 'form',
    check: 'xobjects',
    says: 'A form XObject whose content is in the structure (/StructParents) is drawn once',
    fault: (f) =>
      f.structParents === undefined
        ? undefined
        : f.timesDrawn > 1
          ? `it has /StructParents and this page draws it ${f.timesDrawn} times`
          : f.timesDrawn > 0 && f.pagesDrawnOn > 1
            ? `it has /StructParents and ${f.pagesDrawnOn} pages draw it`
            : undefined,
    fix: 'give each drawing of the form its own copy of the form XObject, with its own /StructParents and structure elements (or mark repeated content as an artifact)',
  }),
];

export const reasons: Reason[] = [];
