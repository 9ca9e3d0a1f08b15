import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests } from '../../shared/numbering.js';
import { drawn, FONT_SUBTYPES, SIMPLE_FONTS } from './font-use.js';

const isInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value);

/** The words in which the parts' font-type rules differ: the reference each names and the font files it knows. */
export interface FontTypeWording {
  /** Whose list of font subtypes test 2 cites ("PDF", "ISO 32000-1"). */
  subtypesOf: string;
  /** The /Subtype values an embedded font file may have. */
  fontFileSubtypes: readonly string[];
  /** Test 7's sentence, naming those subtypes. */
  fontFileSays: string;
  fontFileFix: string;
}

/** The font-type rules (font dictionaries as the PDF reference says), as each part numbers and words them. */
export const fontTypeRules = (at: ClauseTests, wording: FontTypeWording): Rule[] => [
  rule({
    ...at(1),
    object: 'font',
    check: 'font_dictionaries',
    says: 'A font dictionary has /Type /Font',
    fault: (font) =>
      drawn(font) && font.type !== 'Font'
        ? `its /Type is ${font.type ? `/${font.type}` : 'missing'}`
        : undefined,
    fix: 'write /Type /Font in every font dictionary (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(2),
    object: 'font',
    check: 'font_dictionaries',
    says: `A font dictionary has a /Subtype ${wording.subtypesOf} names (Type1, MMType1, TrueType, Type3, Type0, CIDFontType0, CIDFontType2)`,
    fault: (font) =>
      drawn(font) && !FONT_SUBTYPES.has(font.subtype ?? '')
        ? `its /Subtype is ${font.subtype ? `/${font.subtype}` : 'missing'}`
        : undefined,
    fix: 'give the font dictionary the /Subtype of its kind of font (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(3),
    object: 'font',
    check: 'font_dictionaries',
    says: 'A font dictionary other than a Type 3 font has a /BaseFont name',
    fault: (font) =>
      drawn(font) && font.subtype !== 'Type3' && font.baseFont === undefined
        ? 'it has no /BaseFont'
        : undefined,
    fix: "write the font's PostScript name as /BaseFont (save the file again with a PDF/A writer)",
  }),
  rule({
    ...at(4),
    object: 'font',
    check: 'font_dictionaries',
    says: 'A simple font other than the standard 14 has /FirstChar',
    fault: (font) =>
      drawn(font) && SIMPLE_FONTS.has(font.subtype ?? '') && !font.standard14 && !isInteger(font.firstChar)
        ? 'it has no /FirstChar'
        : undefined,
    fix: 'write /FirstChar, /LastChar and /Widths for the font (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(5),
    object: 'font',
    check: 'font_dictionaries',
    says: 'A simple font other than the standard 14 has /LastChar',
    fault: (font) =>
      drawn(font) && SIMPLE_FONTS.has(font.subtype ?? '') && !font.standard14 && !isInteger(font.lastChar)
        ? 'it has no /LastChar'
        : undefined,
    fix: 'write /FirstChar, /LastChar and /Widths for the font (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(6),
    object: 'font',
    check: 'font_dictionaries',
    says: 'A simple font other than the standard 14 has /Widths of LastChar - FirstChar + 1 entries',
    fault: widthsFault,
    fix: 'write a /Widths array with one width per code from /FirstChar to /LastChar (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(7),
    object: 'font',
    check: 'font_dictionaries',
    says: wording.fontFileSays,
    fault: (font) =>
      drawn(font) &&
      font.fontFileSubtype !== undefined &&
      !wording.fontFileSubtypes.includes(font.fontFileSubtype)
        ? `its font file has /Subtype /${font.fontFileSubtype}`
        : undefined,
    fix: wording.fontFileFix,
  }),
];

/** ISO 19005-1, 6.3.2 Font types: the font dictionaries of fonts text is shown with are as PDF Reference 5.5 says. */
export const rules: Rule[] = fontTypeRules(clauseTests(['ISO 19005-1'], '6.3.2'), {
  subtypesOf: 'PDF',
  fontFileSubtypes: ['Type1C', 'CIDFontType0C'],
  fontFileSays: "An embedded font file's /Subtype, when present, is Type1C or CIDFontType0C",
  fontFileFix:
    'embed the font as Type 1, TrueType or bare CFF (Type1C, CIDFontType0C): PDF 1.4 knows no other font file',
});

/** What is wrong with a simple font's /Widths: missing, or not one entry per code from /FirstChar to /LastChar. */
export function widthsFault(font: {
  drawnModes: number[];
  subtype: string | undefined;
  standard14: boolean;
  firstChar: unknown;
  lastChar: unknown;
  widthsCount: number | undefined;
}): string | undefined {
  if (!drawn(font) || !SIMPLE_FONTS.has(font.subtype ?? '') || font.standard14) return undefined;
  if (font.widthsCount === undefined) return 'it has no /Widths array';
  if (!isInteger(font.firstChar) || !isInteger(font.lastChar)) return undefined;
  const expected = (font.lastChar as number) - (font.firstChar as number) + 1;
  return font.widthsCount === expected
    ? undefined
    : `its /Widths has ${font.widthsCount} entries for ${expected} codes (${font.firstChar as number} to ${font.lastChar as number})`;
}

export const reasons: Reason[] = [];
