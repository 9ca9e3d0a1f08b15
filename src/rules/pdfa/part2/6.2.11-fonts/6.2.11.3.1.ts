import { rule, type Reason, type Rule } from '../../../rule.js';
import { systemFault } from '../../part1/6.3-fonts/6.3.3.1.js';

/** ISO 19005-2 and -3, 6.2.11.3.1 Composite fonts, general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.11.3.1',
    test: 1,
    object: 'cmap',
    check: 'composite_fonts',
    says: "Unless its CMap is Identity-H or Identity-V, a Type 0 font's CIDFont and CMap have the same Registry and Ordering, and the CIDFont's Supplement is no later than the CMap's",
    fault: (cmap) => systemFault(cmap, true),
    fix: "encode the font with a CMap of its CIDFont's character collection, or with Identity-H (save the file again with a PDF/A writer)",
  }),
];
export const reasons: Reason[] = [];
