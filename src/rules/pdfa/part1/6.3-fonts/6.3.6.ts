import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule that a glyph's dictionary and program widths agree, as each part numbers it. */
export const glyphWidthRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'glyph',
    check: 'font_widths',
    says: "A glyph's width in the font dictionary and in the embedded program agree, to 1/1000 em (rendering mode 3 aside)",
    fault: widthFault,
    fix: "write the font's /Widths (or /W) from the embedded program's advance widths (save the file again with a PDF/A writer)",
  });

/** ISO 19005-1, 6.3.6 Font metrics. */
export const rules: Rule[] = [glyphWidthRule(clauseTests(['ISO 19005-1'], '6.3.6')(1))];

/** What is wrong with a glyph's widths: "consistent" is within one unit of 1/1000 em. */
export function widthFault(glyph: {
  renderingMode: number;
  widthInDictionary: number | undefined;
  widthInProgram: number | undefined;
}): string | undefined {
  const { widthInDictionary: dict, widthInProgram: program } = glyph;
  if (glyph.renderingMode === 3 || dict === undefined || program === undefined) return undefined;
  return Math.abs(dict - program) <= 1
    ? undefined
    : `the dictionary gives width ${round(dict)} and the program ${round(program)}`;
}

const round = (n: number) => Math.round(n * 100) / 100;

export const reasons: Reason[] = [];
