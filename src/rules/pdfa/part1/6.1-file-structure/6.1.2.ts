import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.2 File header. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.2',
    test: 1,
    object: 'file',
    check: 'file_header',
    says: 'The file begins at byte 0 with a header `%PDF-n.m`',
    fault: (file) =>
      file.headerOffset !== 0
        ? file.headerOffset < 0
          ? 'no %PDF- header in the first KiB'
          : `the header starts at byte ${file.headerOffset}`
        : /^\d\.\d/.test(file.version ?? '')
          ? undefined
          : `the header names version "${file.version ?? ''}"`,
    fix: 'save the file again with a PDF/A writer: the file must begin with %PDF-1.4',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.2',
    test: 2,
    object: 'file',
    check: 'file_header',
    says: 'The header line is followed by a comment of at least four bytes above 127',
    fault: (file) =>
      file.commentBytes.length === 4 && file.commentBytes.every((b) => b > 127)
        ? undefined
        : 'no comment of four bytes above 127 follows the header',
    fix: 'save the file again with a PDF/A writer (it writes the binary comment line after the header)',
  }),
];
export const reasons: Reason[] = [];
