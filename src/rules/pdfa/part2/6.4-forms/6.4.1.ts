import type { AcroFormNode } from '../../../../pdf/model/interactive.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** NeedAppearances set, or written as something a reader cannot take for false. */
const needAppearancesFault = (form: AcroFormNode): string | undefined =>
  form.needAppearances === true
    ? 'NeedAppearances is true'
    : form.needAppearances === 'not a boolean'
      ? 'NeedAppearances is not a boolean'
      : undefined;

const actionKeys = (node: { action: boolean; additionalActions: boolean }) =>
  [node.action ? '/A' : '', node.additionalActions ? '/AA' : ''].filter(Boolean).join(' and ');

/** The rule that the interactive form asks no viewer to make appearances, as each part numbers it. */
export const needAppearancesRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'acroform',
    check: 'need_appearances',
    says: 'The interactive form has no NeedAppearances flag, or it is false',
    fault: needAppearancesFault,
    fix: 'give every field an appearance stream and remove /NeedAppearances (or set it to false)',
  });

/** ISO 19005-2 and -3, 6.4.1 Interactive forms: general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.1',
    test: 1,
    object: 'annotation',
    check: 'form_field_actions',
    says: 'A widget annotation has neither an A nor an AA entry',
    fault: (a) =>
      a.subtype === 'Widget' && (a.action || a.additionalActions)
        ? `the widget has ${actionKeys(a)}`
        : undefined,
    fix: 'remove the widget’s action (/A) and additional actions (/AA)',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.1',
    test: 2,
    object: 'form_field',
    check: 'form_field_actions',
    says: 'A field dictionary has neither an A nor an AA entry',
    fault: (f) => (f.action || f.additionalActions ? `the field has ${actionKeys(f)}` : undefined),
    fix: 'remove the field’s action (/A) and additional actions (/AA: keystroke, format, validate and calculate scripts)',
  }),
  needAppearancesRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.4.1')(3)),
];
export const reasons: Reason[] = [];
