import { rule, type Reason, type Rule } from '../../rule.js';
import { widthFault } from '../../pdfa/part1/6.3-fonts/6.3.6.js';

/** ISO 14289-1, 7.21.5 Fonts: font metrics. The same test as ISO 19005-2 6.2.11.5-1. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.5',
    test: 1,
    object: 'glyph',
    check: 'font_widths',
    says: "A rendered glyph's width in the font dictionary and in the embedded program agree, to 1/1000 em",
    fault: widthFault,
    fix: "write the font's /Widths (or /W) from the embedded program's advance widths (export the PDF again from its source)",
  }),
];

export const reasons: Reason[] = [];
