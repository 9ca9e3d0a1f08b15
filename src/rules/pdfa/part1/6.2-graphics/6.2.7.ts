import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule that no XObject the pages draw is a PostScript XObject, as each part numbers it. */
export const postScriptXObjectRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'xobject',
    check: 'form_xobjects',
    says: 'No XObject is a PostScript XObject (Subtype PS)',
    // the XObjects the pages draw, as veraPDF reads the clause
    fault: (xobject) => (xobject.drawn && xobject.subtype === 'PS' ? 'a PostScript XObject' : undefined),
    fix: 'remove the PostScript XObject and the Do operators that paint it',
  });

/** ISO 19005-1, 6.2.7 PostScript XObjects. */
export const rules: Rule[] = [postScriptXObjectRule(clauseTests(['ISO 19005-1'], '6.2.7')(1))];
export const reasons: Reason[] = [];
