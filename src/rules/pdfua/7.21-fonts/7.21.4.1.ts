import { rule, type Reason, type Rule } from '../../rule.js';
import { embeddingFault } from '../../pdfa/part1/6.3-fonts/6.3.4.js';
import { glyphPresenceFault } from '../../pdfa/part1/6.3-fonts/6.3.5.js';

/**
 * ISO 14289-1, 7.21.4.1 Fonts: embedding. The same tests as ISO 19005-2 6.2.11.4.1: a font is used for rendering
 * when text is shown with it in a rendering mode other than 3 (invisible text is not rendered); text that
 * /ActualText replaces for reading is still drawn, so its font is still used for rendering.
 */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.4.1',
    test: 1,
    object: 'font',
    check: 'fonts_embedded',
    says: 'The program of every font used for rendering is embedded (text only in rendering mode 3 is not rendered)',
    fault: embeddingFault,
    fix: 'embed the font program (subset or whole) when the PDF is made, or convert the text to outlines',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.4.1',
    test: 2,
    object: 'glyph',
    check: 'fonts_embedded',
    says: 'An embedded font defines every glyph text is rendered with (rendering mode 3 aside)',
    fault: glyphPresenceFault,
    fix: 'embed the font again with every glyph the text uses (a subset must keep them all)',
  }),
];

export const reasons: Reason[] = [];
