import { rule, type Reason, type Rule } from '../../../rule.js';
import { actionTypeFault, namedActionRule } from '../../part2/6.5-actions/6.5.1.js';
import { clauseTests } from '../../shared/numbering.js';

/**
 * PDF Reference 1.4's action types (8.5.3) less Launch, Sound, Movie, ResetForm, ImportData, JavaScript, the
 * deprecated set-state and no-op actions and (Corrigendum 2) Hide.
 */
const PERMITTED = new Set(['GoTo', 'GoToR', 'Thread', 'URI', 'Named', 'SubmitForm']);

/** ISO 19005-1, 6.6.1 Actions: general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.6.1',
    test: 1,
    object: 'action',
    check: 'forbidden_actions',
    says: 'No Launch, Sound, Movie, ResetForm, ImportData, JavaScript, Hide, set-state or no-op action',
    fault: (a) => actionTypeFault(a, PERMITTED),
    fix: 'remove the action: links may go to destinations, other files, threads and URIs, and submit forms',
  }),
  namedActionRule(clauseTests(['ISO 19005-1'], '6.6.1')(2)),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.6.1',
    test: 3,
    object: 'annotation',
    check: 'form_field_actions',
    says: 'A widget annotation (a form field) performs no action: it has no A entry',
    fault: (a) => (a.subtype === 'Widget' && a.action ? 'the widget has an action (/A)' : undefined),
    fix: 'remove the form field widget’s action (/A)',
  }),
];
export const reasons: Reason[] = [];
