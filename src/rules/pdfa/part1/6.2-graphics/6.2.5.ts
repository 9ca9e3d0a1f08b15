import type { FormNode } from '../../../../pdf/model/graphics.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

/** What makes a form XObject PostScript: /Subtype2 /PS, or a /PS fragment. */
export function postScriptFormFault(form: FormNode): string | undefined {
  if (form.subtype2 === 'PS') return 'Subtype2 is PS (a PostScript form XObject)';
  return form.hasPs ? 'a /PS entry (a PostScript fragment)' : undefined;
}

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
    fault: (form) => (form.drawn ? postScriptFormFault(form) : undefined),
    fix: 'remove the /PS entry (and /Subtype2 /PS) from the form XObject',
  }),
];
export const reasons: Reason[] = [];
