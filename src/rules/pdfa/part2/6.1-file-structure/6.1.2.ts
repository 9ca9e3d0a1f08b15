import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.1.2 File header. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.2',
    test: 1,
    object: 'file',
    check: 'file_header',
    says: 'The file begins at byte 0 with the header %PDF-1.n (n from 0 to 7) and one end-of-line marker',
    fault: (file) =>
      file.headerOffset < 0
        ? 'no %PDF- header in the first KiB'
        : file.headerOffset > 0
          ? `the header starts at byte ${file.headerOffset}`
          : !/^1\.[0-7]$/.test(file.version ?? '')
            ? `the header names version "${file.version ?? ''}"`
            : !file.singleEol
              ? 'the header line is not ended by one end-of-line marker'
              : undefined,
    fix: 'save the file again with a PDF/A writer: the file must begin with %PDF-1.7 (or 1.0 to 1.6) on a line of its own',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.2',
    test: 2,
    object: 'file',
    check: 'file_header',
    says: 'The header’s end-of-line marker is followed at once by a comment of at least four bytes above 127',
    fault: (file) =>
      !file.singleEol
        ? 'the comment does not follow the header’s end-of-line marker at once'
        : file.commentBytes.length === 4 && file.commentBytes.every((b) => b > 127)
          ? undefined
          : 'no comment of four bytes above 127 follows the header',
    fix: 'save the file again with a PDF/A writer (it writes the binary comment line after the header)',
  }),
];
export const reasons: Reason[] = [];
