import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.2.8 Extended graphics state. The graphics states the pages set with `gs`. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.8',
    test: 1,
    object: 'graphics_state',
    check: 'transfer_functions',
    says: 'An ExtGState dictionary has no TR entry',
    fault: (gs) => (gs.drawn && gs.hasTR ? 'a /TR (transfer function) entry' : undefined),
    fix: 'remove the /TR entry from the graphics state (transfer functions are not allowed)',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.8',
    test: 2,
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
export const reasons: Reason[] = [];
