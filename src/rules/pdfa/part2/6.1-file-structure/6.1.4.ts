import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.1.4 Cross reference table. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.4',
    test: 2,
    object: 'xref_section',
    check: 'xref_syntax',
    says: 'One end-of-line marker separates the xref keyword and the first subsection header',
    fault: (section) =>
      /^(\r\n|\r|\n)$/.test(section.afterKeyword)
        ? undefined
        : `the xref keyword is followed by ${JSON.stringify(section.afterKeyword)}`,
    fix: 'save the file again with a PDF/A writer (it writes the cross-reference table as PDF/A asks)',
  }),
];
export const reasons: Reason[] = [];
