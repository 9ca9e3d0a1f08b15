import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

const shown = (white: string) => JSON.stringify(white);

/** The rule that one end-of-line marker follows the xref keyword, as each part numbers it. */
export const xrefKeywordRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'xref_section',
    check: 'xref_syntax',
    says: 'One end-of-line marker separates the xref keyword and the first subsection header',
    fault: (section) =>
      /^(\r\n|\r|\n)$/.test(section.afterKeyword)
        ? undefined
        : `the xref keyword is followed by ${shown(section.afterKeyword)}`,
    fix: 'save the file again with a PDF/A writer (it writes the cross-reference table as PDF/A asks)',
  });

/** ISO 19005-1, 6.1.4 Cross reference table. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.4',
    test: 1,
    object: 'xref_section',
    check: 'xref_syntax',
    says: 'In a cross-reference subsection header, one SPACE separates the first object number and the count',
    fault: (section) => {
      const wrong = section.headerSeparators.find((s) => s !== ' ');
      return wrong === undefined ? undefined : `a subsection header separates its numbers by ${shown(wrong)}`;
    },
    fix: 'save the file again with a PDF/A writer (it writes the cross-reference table as PDF/A asks)',
  }),
  xrefKeywordRule(clauseTests(['ISO 19005-1'], '6.1.4')(2)),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.4',
    test: 3,
    object: 'file',
    check: 'xref_streams',
    says: 'The file uses no cross-reference streams',
    fault: (file) =>
      file.xrefStreams > 0
        ? `${file.xrefStreams} cross-reference stream${file.xrefStreams === 1 ? '' : 's'}`
        : undefined,
    fix: 'save the file as PDF 1.4 with a cross-reference table (no object or cross-reference streams)',
  }),
];
export const reasons: Reason[] = [];
