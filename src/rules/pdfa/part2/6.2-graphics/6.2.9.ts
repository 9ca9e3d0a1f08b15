import { rule, type Reason, type Rule } from '../../../rule.js';

// The forms and XObjects the pages draw, as veraPDF reads the clause (an unused one is never rendered).
const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;

/** ISO 19005-2 and -3, 6.2.9 XObjects. */
export const rules: Rule[] = [
  rule({
    specifications: SPECS,
    clause: '6.2.9',
    test: 1,
    object: 'form',
    check: 'form_xobjects',
    says: 'A form XObject has no OPI entry, no PS entry and no Subtype2 PS',
    fault: (form) =>
      !form.drawn
        ? undefined
        : form.subtype2 === 'PS'
          ? 'Subtype2 is PS (a PostScript form XObject)'
          : form.hasPs
            ? 'a /PS entry (a PostScript fragment)'
            : form.hasOpi
              ? 'an /OPI entry'
              : undefined,
    fix: 'remove the /PS, /OPI and /Subtype2 entries from the form XObject',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.9',
    test: 2,
    object: 'form',
    check: 'form_xobjects',
    says: 'No form XObject is a reference XObject (a Ref entry)',
    fault: (form) => (form.drawn && form.hasRef ? 'a /Ref entry (a reference XObject)' : undefined),
    fix: 'embed the referenced page as an ordinary form XObject and remove the /Ref entry',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.9',
    test: 3,
    object: 'xobject',
    check: 'form_xobjects',
    says: 'No XObject is a PostScript XObject (Subtype PS)',
    fault: (xobject) => (xobject.drawn && xobject.subtype === 'PS' ? 'a PostScript XObject' : undefined),
    fix: 'remove the PostScript XObject and the Do operators that paint it',
  }),
];
export const reasons: Reason[] = [];
