import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests } from '../../shared/numbering.js';

/** The transfer function rules (no TR, no TR2 but /Default) of the graphics states the pages set, as each part numbers them. */
export const transferFunctionRules = (at: ClauseTests): Rule[] => [
  rule({
    ...at(1),
    object: 'graphics_state',
    check: 'transfer_functions',
    says: 'An ExtGState dictionary has no TR entry',
    fault: (gs) => (gs.drawn && gs.hasTR ? 'a /TR (transfer function) entry' : undefined),
    fix: 'remove the /TR entry from the graphics state (transfer functions are not allowed)',
  }),
  rule({
    ...at(2),
    object: 'graphics_state',
    check: 'transfer_functions',
    says: 'An ExtGState dictionary has no TR2 entry other than /Default',
    fault: (gs) =>
      gs.drawn && gs.tr2 !== undefined && gs.tr2 !== 'Default'
        ? `TR2 is ${gs.tr2 === '' ? 'a transfer function' : `/${gs.tr2}`}`
        : undefined,
    fix: 'remove the /TR2 entry from the graphics state, or set it to /Default',
  }),
];

/** ISO 19005-1, 6.2.8 Extended graphics state. The graphics states the pages set with `gs`. */
export const rules: Rule[] = transferFunctionRules(clauseTests(['ISO 19005-1'], '6.2.8'));
export const reasons: Reason[] = [];
