import { rule, type Reason, type Rule } from '../../../rule.js';

const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;
/** The blend modes ISO 32000-1 (11.3.5) defines. */
const BLEND_MODES = new Set([
  'Normal',
  'Compatible',
  'Multiply',
  'Screen',
  'Overlay',
  'Darken',
  'Lighten',
  'ColorDodge',
  'ColorBurn',
  'HardLight',
  'SoftLight',
  'Difference',
  'Exclusion',
  'Hue',
  'Saturation',
  'Color',
  'Luminosity',
]);

/** ISO 19005-2 and -3, 6.2.10 Transparency. */
export const rules: Rule[] = [
  rule({
    specifications: SPECS,
    clause: '6.2.10',
    test: 1,
    object: 'blend_mode',
    check: 'blend_modes',
    says: 'Every blend mode of a graphics state is one ISO 32000-1 defines',
    // the blend modes of the graphics states the pages set
    fault: (mode) => (mode.drawn && !BLEND_MODES.has(mode.name) ? `the blend mode /${mode.name}` : undefined),
    fix: 'use one of the blend modes of ISO 32000-1 (/Normal, /Multiply, /Screen, ...)',
  }),
  rule({
    specifications: SPECS,
    clause: '6.2.10',
    test: 2,
    object: 'page_transparency',
    check: 'blending_color_space',
    says:
      'Without a PDF/A output intent, a page that paints with transparency has a Group whose CS names its blending ' +
      'colour space',
    fault: (page) =>
      page.usesTransparency && !page.pdfaOutputIntent && !page.groupHasColorSpace
        ? 'transparency painted without a PDF/A output intent or a page group colour space'
        : undefined,
    fix: 'add a PDF/A output intent (GTS_PDFA1 with an ICC profile), or a page /Group with /CS naming the blending colour space',
  }),
];
export const reasons: Reason[] = [];
