import { rule, type Reason, type Rule } from '../../rule.js';
import { notdefFault } from '../../pdfa/part2/6.2.11-fonts/6.2.11.8.js';

/** ISO 14289-1, 7.21.8 Fonts: the .notdef glyph. The same test as ISO 19005-2 6.2.11.8-1. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.8',
    test: 1,
    object: 'glyph',
    check: 'notdef_glyphs',
    says: 'No text showing operator refers to the .notdef glyph, whatever the rendering mode',
    fault: notdefFault,
    fix: 'show only codes the font maps to real glyphs (the .notdef glyph reads as nothing, or as a box)',
  }),
];

export const reasons: Reason[] = [];
