import { rule, type Reason, type Rule } from '../../../rule.js';
import { catalogActionsRule } from '../../part1/6.6-actions/6.6.2.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-2 and -3, 6.5.2 Trigger events. */
export const rules: Rule[] = [
  catalogActionsRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.5.2')(1)),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.5.2',
    test: 2,
    object: 'page',
    check: 'additional_actions',
    says: 'No page dictionary has an AA entry',
    fault: (page) => (page.additionalActions ? 'the page has additional actions (/AA)' : undefined),
    fix: 'remove the page’s /AA (PDF/A runs no action when a page opens or closes)',
  }),
];
export const reasons: Reason[] = [];
