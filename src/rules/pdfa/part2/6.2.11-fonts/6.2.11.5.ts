import { rule, type Reason, type Rule } from '../../../rule.js';
import { widthFault } from '../../part1/6.3-fonts/6.3.6.js';

/** ISO 19005-2 and -3, 6.2.11.5 Font metrics. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.11.5',
    test: 1,
    object: 'glyph',
    check: 'font_widths',
    says: "A glyph's width in the font dictionary and in the embedded program agree, to 1/1000 em (rendering mode 3 aside)",
    fault: widthFault,
    fix: "write the font's /Widths (or /W) from the embedded program's advance widths (save the file again with a PDF/A writer)",
  }),
];
export const reasons: Reason[] = [];
