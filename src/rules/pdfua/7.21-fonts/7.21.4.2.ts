import { rule, type Reason, type Rule } from '../../rule.js';
import { cidSubsetFault, type1CharSetFault } from '../../pdfa/part2/6.2.11-fonts/6.2.11.4.2.js';

/** ISO 14289-1, 7.21.4.2 Fonts: subset embedding. The same tests as ISO 19005-2 6.2.11.4.2. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.4.2',
    test: 1,
    object: 'font',
    check: 'font_subsets',
    says: "An embedded Type 1 subset's /CharSet, when present, lists every glyph of its program",
    fault: type1CharSetFault,
    fix: 'write the /CharSet from the embedded subset, or leave it out',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.4.2',
    test: 2,
    object: 'cid_font',
    check: 'font_subsets',
    says: "An embedded CIDFont subset's /CIDSet, when present, identifies every CID of its program",
    fault: cidSubsetFault,
    fix: 'write the /CIDSet from the embedded subset, or leave it out',
  }),
];

export const reasons: Reason[] = [];
