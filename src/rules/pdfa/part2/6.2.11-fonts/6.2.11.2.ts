import type { Reason, Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { fontTypeRules } from '../../part1/6.3-fonts/6.3.2.js';

/** ISO 19005-2 and -3, 6.2.11.2 Font types: font dictionaries as ISO 32000-1 9.6 and 9.7 say, whatever the rendering mode. */
export const rules: Rule[] = fontTypeRules(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.2.11.2'), {
  subtypesOf: 'ISO 32000-1',
  fontFileSubtypes: ['Type1C', 'CIDFontType0C', 'OpenType'],
  fontFileSays: "An embedded font file's /Subtype, when present, is Type1C, CIDFontType0C or OpenType",
  fontFileFix: 'embed the font as Type 1, TrueType, bare CFF (Type1C, CIDFontType0C) or OpenType',
});
export const reasons: Reason[] = [];
