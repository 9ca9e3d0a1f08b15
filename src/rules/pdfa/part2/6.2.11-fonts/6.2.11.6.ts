import { rule, type Reason, type Rule } from '../../../rule.js';
import { drawn, rendered } from '../../part1/6.3-fonts/font-use.js';
import { symbolicEncodingFault } from '../../part1/6.3-fonts/6.3.7.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;
const LATIN = new Set(['MacRomanEncoding', 'WinAnsiEncoding']);

/** ISO 19005-2 and -3, 6.2.11.6 Character encodings (TrueType fonts). */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 1,
    object: 'font_program',
    check: 'font_encodings',
    says: "A non-symbolic TrueType font's program has a non-symbolic cmap subtable (one other than (3,0))",
    fault: (program) =>
      rendered(program) &&
      !program.symbolic &&
      program.cmapEncodings &&
      !program.cmapEncodings.some((e) => e !== '3,0')
        ? `its cmap has ${program.cmapEncodings.length === 0 ? 'no subtable' : 'only the symbolic (3,0) subtable'}`
        : undefined,
    fix: 'embed the TrueType program with a (3,1) Unicode cmap subtable, or mark the font symbolic',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 2,
    object: 'font',
    check: 'font_encodings',
    says: 'A non-symbolic TrueType font is encoded by MacRomanEncoding or WinAnsiEncoding, and its /Differences (if any) name only Adobe Glyph List glyphs of a program with a (3,1) cmap',
    fault: (font) => {
      if (!drawn(font) || font.subtype !== 'TrueType' || font.symbolic) return undefined;
      if (!LATIN.has(font.encodingName ?? ''))
        return font.encodingName
          ? `it is encoded by /${font.encodingName}`
          : 'it names no MacRomanEncoding or WinAnsiEncoding';
      if (!font.hasDifferences) return undefined;
      if (!font.differencesInGlyphList) return 'its /Differences name glyphs outside the Adobe Glyph List';
      const cmaps = font.programCmapEncodings;
      return cmaps && !cmaps.includes('3,1')
        ? 'it has /Differences and its program has no (3,1) cmap'
        : undefined;
    },
    fix: 'encode the non-symbolic TrueType font by /WinAnsiEncoding (or /MacRomanEncoding), with /Differences only of standard glyph names and a (3,1) cmap in the program',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 3,
    object: 'font',
    check: 'font_encodings',
    says: 'A symbolic TrueType font has no /Encoding',
    fault: symbolicEncodingFault,
    fix: "remove /Encoding from the symbolic TrueType font (its program's cmap encodes it)",
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 4,
    object: 'font_program',
    check: 'font_encodings',
    says: "The cmap of a symbolic TrueType font's program has exactly one subtable, or the (3,0) one among others",
    fault: (program) =>
      drawn(program) &&
      program.symbolic &&
      program.cmapEncodings &&
      program.cmapEncodings.length !== 1 &&
      !program.cmapEncodings.includes('3,0')
        ? `its cmap has ${program.cmapEncodings.length} subtables and no (3,0) (${program.cmapEncodings.join('; ') || 'none'})`
        : undefined,
    fix: 'embed the symbolic TrueType program with a (3,0) Microsoft Symbol cmap subtable',
  }),
];
export const reasons: Reason[] = [];
