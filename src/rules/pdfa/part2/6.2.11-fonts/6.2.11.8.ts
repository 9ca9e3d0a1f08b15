import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.2.11.8 Unicode character maps... and the .notdef glyph. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.11.8',
    test: 1,
    object: 'glyph',
    check: 'notdef_glyphs',
    says: 'No text showing operator refers to the .notdef glyph, whatever the rendering mode',
    fault: notdefFault,
    fix: 'show only codes the font maps to real glyphs (a code of the .notdef glyph draws nothing a reader can rely on)',
  }),
];
/** A glyph shown by the .notdef glyph, whatever the rendering mode (shared with ISO 14289-1 7.21.8-1). */
export function notdefFault(glyph: { name: string | undefined }): string | undefined {
  return glyph.name === '.notdef' ? 'the text shows the .notdef glyph' : undefined;
}

export const reasons: Reason[] = [];
