import type { FontNode, FontProgramNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { drawn, rendered } from '../../part1/6.3-fonts/font-use.js';
import {
  latinEncodingFault,
  nonSymbolicTrueType,
  symbolicEncodingRule,
} from '../../part1/6.3-fonts/6.3.7.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;

const at = clauseTests(spec, '6.2.11.6');

/** ISO 19005-2 and -3, 6.2.11.6 Character encodings (TrueType fonts). */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 1,
    object: 'font_program',
    check: 'font_encodings',
    says: "A non-symbolic TrueType font's program has a non-symbolic cmap subtable (one other than (3,0))",
    fault: (program) => nonSymbolicCmapFault(program),
    fix: 'embed the TrueType program with a (3,1) Unicode cmap subtable, or mark the font symbolic',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 2,
    object: 'font',
    check: 'font_encodings',
    says: 'A non-symbolic TrueType font is encoded by MacRomanEncoding or WinAnsiEncoding, and its /Differences (if any) name only Adobe Glyph List glyphs of a program with a (3,1) cmap',
    fault: (font) => trueTypeEncodingFault(font),
    fix: 'encode the non-symbolic TrueType font by /WinAnsiEncoding (or /MacRomanEncoding), with /Differences only of standard glyph names and a (3,1) cmap in the program',
  }),
  symbolicEncodingRule(at(3)),
  rule({
    specifications: spec,
    clause: '6.2.11.6',
    test: 4,
    object: 'font_program',
    check: 'font_encodings',
    says: "The cmap of a symbolic TrueType font's program has exactly one subtable, or the (3,0) one among others",
    fault: (program) => symbolicCmapFault(program),
    fix: 'embed the symbolic TrueType program with a (3,0) Microsoft Symbol cmap subtable',
  }),
];
/** A rendered non-symbolic TrueType program with no non-symbolic cmap subtable (shared with ISO 14289-1 7.21.6-1). */
export const nonSymbolicCmapFault = (program: FontProgramNode): string | undefined =>
  rendered(program) &&
  !program.symbolic &&
  program.cmapEncodings &&
  !program.cmapEncodings.some((e) => e !== '3,0')
    ? `its cmap has ${program.cmapEncodings.length === 0 ? 'no subtable' : 'only the symbolic (3,0) subtable'}`
    : undefined;

/** What is wrong with a drawn non-symbolic TrueType font's encoding (shared with ISO 14289-1 7.21.6-2). */
export function trueTypeEncodingFault(font: FontNode): string | undefined {
  if (!nonSymbolicTrueType(font)) return undefined;
  const nameFault = latinEncodingFault(font);
  if (nameFault) return nameFault;
  if (!font.hasDifferences) return undefined;
  if (!font.differencesInGlyphList) return 'its /Differences name glyphs outside the Adobe Glyph List';
  const cmaps = font.programCmapEncodings;
  return cmaps && !cmaps.includes('3,1')
    ? 'it has /Differences and its program has no (3,1) cmap'
    : undefined;
}

/** A drawn symbolic TrueType program whose cmap has several subtables and no (3,0) (shared with ISO 14289-1 7.21.6-4). */
export const symbolicCmapFault = (program: FontProgramNode): string | undefined =>
  drawn(program) &&
  program.symbolic &&
  program.cmapEncodings &&
  program.cmapEncodings.length !== 1 &&
  !program.cmapEncodings.includes('3,0')
    ? `its cmap has ${program.cmapEncodings.length} subtables and no (3,0) (${program.cmapEncodings.join('; ') || 'none'})`
    : undefined;

export const reasons: Reason[] = [];
