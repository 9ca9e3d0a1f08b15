import { rule, type Reason, type Rule } from '../../rule.js';
import { systemFault } from '../../pdfa/part1/6.3-fonts/6.3.3.1.js';

/** ISO 14289-1, 7.21.3.1 Fonts: CIDSystemInfo. The same test as ISO 19005-2 6.2.11.3.1-1. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.3.1',
    test: 1,
    object: 'cmap',
    check: 'cid_system_info',
    says: "Unless its CMap is Identity-H or Identity-V, a Type 0 font's CIDFont and CMap have the same Registry and Ordering, and the CIDFont's Supplement is no later than the CMap's",
    fault: (cmap) => systemFault(cmap, true),
    fix: "encode the font with a CMap of its CIDFont's character collection, or with Identity-H (export the PDF again from its source)",
  }),
];

export const reasons: Reason[] = [];
