import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule that the catalog has no additional actions, as each part numbers it. */
export const catalogActionsRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'document',
    check: 'additional_actions',
    says: 'The document catalog has no AA entry',
    fault: (doc) => (doc.additionalActions ? 'the catalog has additional actions (/AA)' : undefined),
    fix: 'remove the catalog’s /AA (PDF/A runs no action on document events)',
  });

/** ISO 19005-1, 6.6.2 Trigger events. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.6.2',
    test: 1,
    object: 'annotation',
    check: 'form_field_actions',
    says: 'A widget annotation has no AA entry',
    fault: (a) =>
      a.subtype === 'Widget' && a.additionalActions ? 'the widget has additional actions (/AA)' : undefined,
    fix: 'remove the widget’s /AA (PDF/A runs no action on events)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.6.2',
    test: 2,
    object: 'form_field',
    check: 'form_field_actions',
    says: 'A field dictionary has no AA entry',
    fault: (f) => (f.additionalActions ? 'the field has additional actions (/AA)' : undefined),
    fix: 'remove the field’s /AA (its keystroke, format, validate and calculate scripts)',
  }),
  catalogActionsRule(clauseTests(['ISO 19005-1'], '6.6.2')(3)),
];
export const reasons: Reason[] = [];
