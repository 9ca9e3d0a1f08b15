import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { transferFunctionRules } from '../../part1/6.2-graphics/6.2.8.js';

// Judged on the graphics states the pages set with `gs` and their halftones, as veraPDF reads the clause.
const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;
/** The colorants a type 5 halftone's component stands for without a transfer function of its own. */
const PRIMARIES = new Set(['Cyan', 'Magenta', 'Yellow', 'Black']);

/** ISO 19005-2 and -3, 6.2.5 Extended graphics state. */
export const rules: Rule[] = [
  ...transferFunctionRules(clauseTests(SPECS, '6.2.5')),
  rule({
    specifications: SPECS,
    clause: '6.2.5',
    test: 3,
    object: 'graphics_state',
    check: 'halftones',
    says: 'An ExtGState dictionary has no HTP entry',
    fault: (gs) => (gs.drawn && gs.hasHTP ? 'an /HTP (halftone phase) entry' : undefined),
    fix: 'remove the /HTP entry from the graphics state',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.5',
    test: 4,
    object: 'halftone',
    check: 'halftones',
    says: 'Every halftone has HalftoneType 1 or 5',
    fault: (ht) =>
      !ht.drawn || ht.halftoneType === 1 || ht.halftoneType === 5
        ? undefined
        : ht.halftoneType === undefined
          ? 'a halftone without a HalftoneType'
          : `a halftone of type ${ht.halftoneType}`,
    fix: 'use a halftone of type 1 or 5, or remove the /HT entry from the graphics state',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.5',
    test: 5,
    object: 'halftone',
    check: 'halftones',
    says: 'No halftone has a HalftoneName entry',
    fault: (ht) => (ht.drawn && ht.hasHalftoneName ? 'a /HalftoneName entry' : undefined),
    fix: 'remove the /HalftoneName entry from the halftone',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.5',
    test: 6,
    object: 'halftone',
    check: 'halftones',
    says:
      'A halftone has a TransferFunction only as ISO 32000-1 asks: in a type 5 halftone, for each colorant other ' +
      'than the primaries (Cyan, Magenta, Yellow, Black) and Default, and nowhere else',
    fault: (ht) => {
      if (!ht.drawn || ht.colorant === 'Default') return undefined;
      const primary = ht.colorant === undefined || PRIMARIES.has(ht.colorant);
      if (primary && ht.hasTransferFunction)
        return ht.colorant === undefined
          ? 'a TransferFunction in a halftone of its own'
          : `a TransferFunction in the halftone of ${ht.colorant}`;
      if (!primary && !ht.hasTransferFunction) return `no TransferFunction in the halftone of ${ht.colorant}`;
      return undefined;
    },
    fix: 'give a transfer function only to the halftones of non-primary colorants of a type 5 halftone',
  }),
];
export const reasons: Reason[] = [];
