import { rule, type Reason, type Rule } from '../../rule.js';
import { symbolicEncodingFault } from '../../pdfa/part1/6.3-fonts/6.3.7.js';
import {
  nonSymbolicCmapFault,
  symbolicCmapFault,
  trueTypeEncodingFault,
} from '../../pdfa/part2/6.2.11-fonts/6.2.11.6.js';

const at = (test: number) => ({ specifications: ['ISO 14289-1'] as const, clause: '7.21.6', test });

/** ISO 14289-1, 7.21.6 Fonts: character encodings (TrueType fonts). The same tests as ISO 19005-2 6.2.11.6. */
export const rules: Rule[] = [
  rule({
    ...at(1),
    object: 'font_program',
    check: 'truetype_encodings',
    says: "A non-symbolic TrueType font's program has a non-symbolic cmap subtable (one other than (3,0))",
    fault: nonSymbolicCmapFault,
    fix: 'embed the TrueType program with a (3,1) Unicode cmap subtable, or mark the font symbolic',
  }),
  rule({
    ...at(2),
    object: 'font',
    check: 'truetype_encodings',
    says: 'A non-symbolic TrueType font is encoded by MacRomanEncoding or WinAnsiEncoding, and its /Differences (if any) name only Adobe Glyph List glyphs of a program with a (3,1) cmap',
    fault: trueTypeEncodingFault,
    fix: 'encode the non-symbolic TrueType font by /WinAnsiEncoding (or /MacRomanEncoding), with /Differences only of Adobe Glyph List names and a (3,1) cmap in the program',
  }),
  rule({
    ...at(3),
    object: 'font',
    check: 'truetype_encodings',
    says: 'A symbolic TrueType font has no /Encoding',
    fault: symbolicEncodingFault,
    fix: "remove /Encoding from the symbolic TrueType font (its program's cmap encodes it)",
  }),
  rule({
    ...at(4),
    object: 'font_program',
    check: 'truetype_encodings',
    says: "The cmap of a symbolic TrueType font's program has exactly one subtable, or the (3,0) one among others",
    fault: symbolicCmapFault,
    fix: 'embed the symbolic TrueType program with a (3,0) Microsoft Symbol cmap subtable',
  }),
];

export const reasons: Reason[] = [];
