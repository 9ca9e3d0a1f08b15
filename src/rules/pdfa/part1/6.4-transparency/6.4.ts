import { rule, type Reason, type Rule } from '../../../rule.js';

// PDF/A-1 allows no transparency. Judged on what the pages draw (the graphics states they set, the XObjects
// they paint, the page's own group), as veraPDF reads the clause.
const opaque = (alpha: number | undefined) => alpha === undefined || Math.abs(alpha - 1) < 1e-6;
/** An alpha that is not opaque, said: a value that is not a number is no opacity at all. */
const alphaFault = (key: string, what: string, alpha: number | undefined) =>
  opaque(alpha) ? undefined : Number.isNaN(alpha) ? `${key} is not a number` : `${key} (${what}) is ${alpha}`;
/** The blend modes that paint opaquely; written as a name (an array of them is not "the value Normal"). */
const OPAQUE_BLEND_MODES = new Set(['Normal', 'Compatible']);

/** ISO 19005-1, 6.4 Transparency. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 1,
    object: 'graphics_state',
    check: 'no_transparency_part1',
    says: 'An ExtGState dictionary has no SMask entry other than /None',
    fault: (gs) =>
      gs.drawn && gs.softMask !== undefined && gs.softMask !== 'None'
        ? `SMask is ${gs.softMask === '' ? 'a soft mask' : `/${gs.softMask}`}`
        : undefined,
    fix: 'flatten the transparency (PDF/A-1 allows none), or use PDF/A-2',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 2,
    object: 'xobject',
    check: 'no_transparency_part1',
    says: 'An XObject dictionary has no SMask entry',
    fault: (xobject) => (xobject.drawn && xobject.hasSMask ? 'an /SMask entry (a soft mask)' : undefined),
    fix: 'flatten the image onto its background without a soft mask (PDF/A-1 allows no transparency), or use PDF/A-2',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 3,
    object: 'group',
    check: 'no_transparency_part1',
    says: 'No page or form XObject has a transparency group (Group with S Transparency)',
    fault: (group) =>
      group.drawn && group.subtype === 'Transparency' ? 'a transparency group (/S /Transparency)' : undefined,
    fix: 'remove the transparency group (flatten the transparency), or use PDF/A-2',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 4,
    object: 'graphics_state',
    check: 'no_transparency_part1',
    says: 'An ExtGState dictionary has BM Normal or Compatible, when it has BM',
    fault: (gs) => {
      if (!gs.drawn || !gs.hasBM) return undefined;
      if (gs.blendModeName !== undefined)
        return OPAQUE_BLEND_MODES.has(gs.blendModeName) ? undefined : `the blend mode /${gs.blendModeName}`;
      const other = gs.blendModes.find((m) => !OPAQUE_BLEND_MODES.has(m));
      return other !== undefined
        ? `the blend mode /${other}`
        : gs.blendModeUnreadable
          ? 'a BM that is not a blend mode name'
          : 'a BM array, not the name /Normal';
    },
    fix: 'set /BM /Normal (a name, not an array; or remove it) and flatten the blending, or use PDF/A-2',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 5,
    object: 'graphics_state',
    check: 'no_transparency_part1',
    says: 'An ExtGState dictionary has CA 1.0, when it has CA',
    fault: (gs) => (gs.drawn ? alphaFault('CA', 'stroke opacity', gs.strokeAlpha) : undefined),
    fix: 'set /CA 1 (opaque strokes), or use PDF/A-2',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.4',
    test: 6,
    object: 'graphics_state',
    check: 'no_transparency_part1',
    says: 'An ExtGState dictionary has ca 1.0, when it has ca',
    fault: (gs) => (gs.drawn ? alphaFault('ca', 'fill opacity', gs.fillAlpha) : undefined),
    fix: 'set /ca 1 (opaque fills), or use PDF/A-2',
  }),
];
export const reasons: Reason[] = [];
