import type { ActionNode } from '../../../../pdf/model/interactive.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The named actions PDF/A permits: page turns. */
const PERMITTED_NAMED = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);

/**
 * An action whose type is not among `permitted`: the types the part's reference defines less those the clause
 * forbids (the deprecated set-state and no-op actions among them). An action dictionary without /S is none of
 * the permitted types either (a viewer cannot tell what it does), as the published test reads it.
 */
export function actionTypeFault(action: ActionNode, permitted: ReadonlySet<string>): string | undefined {
  if (action.type === null) return 'an action without a type (/S)';
  return permitted.has(action.type) ? undefined : `a ${action.type} action`;
}

/** A named action other than the page turns. */
function namedActionFault(action: ActionNode): string | undefined {
  if (action.type !== 'Named' || (action.named !== null && PERMITTED_NAMED.has(action.named)))
    return undefined;
  return `the named action ${action.named ?? '(without /N)'}`;
}

/** The rule of the named actions PDF/A permits, as each part numbers it. */
export const namedActionRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'action',
    check: 'forbidden_actions',
    says: 'Named actions only NextPage, PrevPage, FirstPage and LastPage',
    fault: namedActionFault,
    fix: 'remove the named action, or make it NextPage, PrevPage, FirstPage or LastPage',
  });

/**
 * ISO 32000-1's action types (12.6.4) less Launch, Sound, Movie, ResetForm, ImportData, Hide, SetOCGState,
 * Rendition, Trans, GoTo3DView and JavaScript.
 */
const PERMITTED = new Set(['GoTo', 'GoToR', 'GoToE', 'Thread', 'URI', 'Named', 'SubmitForm']);

/** ISO 19005-2 and -3, 6.5.1 Actions: general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.5.1',
    test: 1,
    object: 'action',
    check: 'forbidden_actions',
    says: 'No Launch, Sound, Movie, ResetForm, ImportData, Hide, SetOCGState, Rendition, Trans, GoTo3DView, JavaScript, set-state or no-op action',
    fault: (a) => actionTypeFault(a, PERMITTED),
    fix: 'remove the action: links may go to destinations, other files, threads and URIs, and submit forms',
  }),
  namedActionRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.5.1')(2)),
];
export const reasons: Reason[] = [];
