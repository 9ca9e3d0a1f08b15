import { rule, type Reason, type Rule } from '../../../rule.js';
import { postScriptFormFault } from '../../part1/6.2-graphics/6.2.5.js';
import { referenceXObjectRule } from '../../part1/6.2-graphics/6.2.6.js';
import { postScriptXObjectRule } from '../../part1/6.2-graphics/6.2.7.js';
import { clauseTests } from '../../shared/numbering.js';

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
      !form.drawn ? undefined : (postScriptFormFault(form) ?? (form.hasOpi ? 'an /OPI entry' : undefined)),
    fix: 'remove the /PS, /OPI and /Subtype2 entries from the form XObject',
  }),
  referenceXObjectRule(clauseTests(SPECS, '6.2.9')(2)),
  postScriptXObjectRule(clauseTests(SPECS, '6.2.9')(3)),
];
export const reasons: Reason[] = [];
