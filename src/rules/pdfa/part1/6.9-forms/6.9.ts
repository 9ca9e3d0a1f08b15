import { rule, type Reason, type Rule } from '../../../rule.js';
import { needAppearancesFault } from '../../part2/6.4-forms/6.4.1.js';

/** ISO 19005-1, 6.9 Interactive forms. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.9',
    test: 1,
    object: 'acroform',
    check: 'need_appearances',
    says: 'The interactive form has no NeedAppearances flag, or it is false',
    fault: needAppearancesFault,
    fix: 'give every field an appearance stream and remove /NeedAppearances (or set it to false)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.9',
    test: 2,
    object: 'annotation',
    check: 'annotation_appearances',
    says: 'Every form field’s widget has an appearance dictionary',
    fault: (a) =>
      a.subtype === 'Widget' && a.appearanceKeys === null
        ? 'the widget has no appearance dictionary (/AP)'
        : undefined,
    fix: 'give the form field an appearance stream (/AP /N) for its value',
  }),
];
export const reasons: Reason[] = [];
