import type { FontNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';
import { drawn } from './font-use.js';

const LATIN = new Set(['MacRomanEncoding', 'WinAnsiEncoding']);

/** A drawn non-symbolic TrueType font: the fonts whose encoding both parts' clauses judge. */
export const nonSymbolicTrueType = (font: FontNode): boolean =>
  drawn(font) && font.subtype === 'TrueType' && !font.symbolic;

/** What is wrong with a non-symbolic TrueType font's encoding name: neither MacRomanEncoding nor WinAnsiEncoding. */
export function latinEncodingFault(font: FontNode): string | undefined {
  if (LATIN.has(font.encodingName ?? '')) return undefined;
  return font.encodingName
    ? `it is encoded by /${font.encodingName}`
    : 'it names no MacRomanEncoding or WinAnsiEncoding';
}

/** The rule that a symbolic TrueType font has no /Encoding, as each part numbers it. */
export const symbolicEncodingRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'font',
    check: 'font_encodings',
    says: 'A symbolic TrueType font has no /Encoding',
    fault: symbolicEncodingFault,
    fix: "remove /Encoding from the symbolic TrueType font (its program's cmap encodes it)",
  });

const at = clauseTests(['ISO 19005-1'], '6.3.7');

/** ISO 19005-1, 6.3.7 Character encodings (TrueType fonts). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.7',
    test: 1,
    object: 'font',
    check: 'font_encodings',
    says: 'A non-symbolic TrueType font is encoded by MacRomanEncoding or WinAnsiEncoding, without /Differences',
    fault: (font) => {
      if (!nonSymbolicTrueType(font)) return undefined;
      return latinEncodingFault(font) ?? (font.hasDifferences ? 'its encoding has /Differences' : undefined);
    },
    fix: 'encode the non-symbolic TrueType font by /WinAnsiEncoding (or /MacRomanEncoding) without /Differences',
  }),
  symbolicEncodingRule(at(2)),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.7',
    test: 3,
    object: 'font_program',
    check: 'font_encodings',
    says: "The cmap table of a symbolic TrueType font's program has exactly one encoding",
    fault: (program) =>
      drawn(program) && program.symbolic && program.cmapEncodings && program.cmapEncodings.length !== 1
        ? `its cmap has ${program.cmapEncodings.length} encodings (${program.cmapEncodings.join('; ') || 'none'})`
        : undefined,
    fix: 'embed the symbolic TrueType program with a single cmap subtable (3,0)',
  }),
];

/** What is wrong with a symbolic TrueType font's encoding: it has one. */
export function symbolicEncodingFault(font: {
  drawnModes: number[];
  subtype: string | undefined;
  symbolic: boolean;
  encodingKind: string;
}): string | undefined {
  return drawn(font) && font.subtype === 'TrueType' && font.symbolic && font.encodingKind !== 'none'
    ? 'the symbolic font has an /Encoding'
    : undefined;
}

export const reasons: Reason[] = [];
