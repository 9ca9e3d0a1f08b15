import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.2.5 Form XObjects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.5',
    test: 1,
    object: 'form',
    check: 'form_xobjects',
    says: 'A form XObject has no PS entry and no Subtype2 PS',
    // the forms the pages draw: a PostScript fragment in an unused form is never rendered (veraPDF's reading)
    fault: (form) =>
      !form.drawn
        ? undefined
        : form.subtype2 === 'PS'
          ? 'Subtype2 is PS (a PostScript form XObject)'
          : form.hasPs
            ? 'a /PS entry (a PostScript fragment)'
            : undefined,
    fix: 'remove the /PS entry (and /Subtype2 /PS) from the form XObject',
  }),
];
export const reasons: Reason[] = [];
