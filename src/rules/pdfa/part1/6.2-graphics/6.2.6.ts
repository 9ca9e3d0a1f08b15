import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule that no form XObject the pages draw is a reference XObject, as each part numbers it. */
export const referenceXObjectRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'form',
    check: 'form_xobjects',
    says: 'No form XObject is a reference XObject (a Ref entry)',
    // the forms the pages draw, as veraPDF reads the clause
    fault: (form) => (form.drawn && form.hasRef ? 'a /Ref entry (a reference XObject)' : undefined),
    fix: 'embed the referenced page as an ordinary form XObject and remove the /Ref entry',
  });

/** ISO 19005-1, 6.2.6 Reference XObjects. */
export const rules: Rule[] = [referenceXObjectRule(clauseTests(['ISO 19005-1'], '6.2.6')(1))];
export const reasons: Reason[] = [];
