import { rule, type Reason, type Rule } from '../../../rule.js';
import { drawn, FONT_SUBTYPES, SIMPLE_FONTS } from '../../part1/6.3-fonts/font-use.js';
import { widthsFault } from '../../part1/6.3-fonts/6.3.2.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;
const isInteger = (value: unknown) => typeof value === 'number' && Number.isInteger(value);

/** ISO 19005-2 and -3, 6.2.11.2 Font types: font dictionaries as ISO 32000-1 9.6 and 9.7 say, whatever the rendering mode. */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.2',
    test: 1,
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
    specifications: spec,
    clause: '6.2.11.2',
    test: 2,
    object: 'font',
    check: 'font_dictionaries',
    says: 'A font dictionary has a /Subtype ISO 32000-1 names (Type1, MMType1, TrueType, Type3, Type0, CIDFontType0, CIDFontType2)',
    fault: (font) =>
      drawn(font) && !FONT_SUBTYPES.has(font.subtype ?? '')
        ? `its /Subtype is ${font.subtype ? `/${font.subtype}` : 'missing'}`
        : undefined,
    fix: 'give the font dictionary the /Subtype of its kind of font (save the file again with a PDF/A writer)',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.2',
    test: 3,
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
    specifications: spec,
    clause: '6.2.11.2',
    test: 4,
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
    specifications: spec,
    clause: '6.2.11.2',
    test: 5,
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
    specifications: spec,
    clause: '6.2.11.2',
    test: 6,
    object: 'font',
    check: 'font_dictionaries',
    says: 'A simple font other than the standard 14 has /Widths of LastChar - FirstChar + 1 entries',
    fault: widthsFault,
    fix: 'write a /Widths array with one width per code from /FirstChar to /LastChar (save the file again with a PDF/A writer)',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.2',
    test: 7,
    object: 'font',
    check: 'font_dictionaries',
    says: "An embedded font file's /Subtype, when present, is Type1C, CIDFontType0C or OpenType",
    fault: (font) =>
      drawn(font) &&
      font.fontFileSubtype !== undefined &&
      !['Type1C', 'CIDFontType0C', 'OpenType'].includes(font.fontFileSubtype)
        ? `its font file has /Subtype /${font.fontFileSubtype}`
        : undefined,
    fix: 'embed the font as Type 1, TrueType, bare CFF (Type1C, CIDFontType0C) or OpenType',
  }),
];
export const reasons: Reason[] = [];
