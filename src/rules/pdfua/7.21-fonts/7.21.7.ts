import type { GlyphNode } from '../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/** The code units ISO 14289-1 7.21.7 forbids a ToUnicode CMap to map to: U+0000, U+FEFF and U+FFFE. */
const FORBIDDEN = new Set([0x0000, 0xfeff, 0xfffe]);

const hex = (unit: number) => `U+${unit.toString(16).toUpperCase().padStart(4, '0')}`;

/** A glyph whose code maps to Unicode in none of the ways ISO 32000-1 9.10.2 lists. */
function unmappedFault(glyph: GlyphNode): string | undefined {
  if (glyph.unicodeBy !== undefined) return undefined;
  return glyph.name
    ? `the code (glyph /${glyph.name}) maps to no Unicode value`
    : 'the code maps to no Unicode value';
}

/** A glyph the ToUnicode CMap maps to U+0000, U+FEFF or U+FFFE. */
function forbiddenValueFault(glyph: GlyphNode): string | undefined {
  const forbidden = glyph.toUnicodeUnits?.find((unit) => FORBIDDEN.has(unit));
  return forbidden === undefined ? undefined : `the ToUnicode CMap maps the code to ${hex(forbidden)}`;
}

/**
 * ISO 14289-1, 7.21.7 Fonts: Unicode character maps. Every code text shows (whatever its rendering mode: a
 * screen reader reads invisible text too) maps to Unicode: by the font's ToUnicode CMap, or by the other means
 * ISO 32000-1 9.10.2 gives (glyph names of a standard encoding or the Adobe Glyph List, the Unicode CMap of a
 * registered CJK character collection).
 */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.7',
    test: 1,
    object: 'glyph',
    check: 'unicode_text',
    says: 'Every character code text shows maps to Unicode, by a ToUnicode CMap or the other means of ISO 32000-1 9.10.2',
    fault: unmappedFault,
    fix: 'give the font a /ToUnicode CMap that maps every code it shows (export the PDF again with ToUnicode maps)',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.7',
    test: 2,
    object: 'glyph',
    check: 'unicode_text',
    says: 'A ToUnicode CMap maps no code text shows to U+0000, U+FEFF or U+FFFE',
    fault: forbiddenValueFault,
    fix: 'map each code in the /ToUnicode CMap to the Unicode value of its character (never 0, U+FEFF or U+FFFE)',
  }),
];

export const reasons: Reason[] = [];
