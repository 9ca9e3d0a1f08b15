import { rule, type Reason, type Rule } from '../../../rule.js';
import { embeddingFault } from '../../part1/6.3-fonts/6.3.4.js';
import { glyphPresenceFault } from '../../part1/6.3-fonts/6.3.5.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;

/** ISO 19005-2 and -3, 6.2.11.4.1 Embedding, general. */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.4.1',
    test: 1,
    object: 'font',
    check: 'fonts_embedded',
    says: 'The program of every font used for rendering is embedded (text only in rendering mode 3 is not rendered)',
    fault: embeddingFault,
    fix: 'embed the font program (subset or whole) when the file is made, or convert the text to outlines',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.4.1',
    test: 2,
    object: 'glyph',
    check: 'font_glyphs',
    says: 'An embedded font defines every glyph text is rendered with',
    fault: glyphPresenceFault,
    fix: 'embed the font again with every glyph the text uses (a subset must keep them all)',
  }),
];
export const reasons: Reason[] = [];
