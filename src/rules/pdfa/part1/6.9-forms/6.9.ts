import { rule, type Reason, type Rule } from '../../../rule.js';
import { needAppearancesRule } from '../../part2/6.4-forms/6.4.1.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-1, 6.9 Interactive forms. */
export const rules: Rule[] = [
  needAppearancesRule(clauseTests(['ISO 19005-1'], '6.9')(1)),
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
