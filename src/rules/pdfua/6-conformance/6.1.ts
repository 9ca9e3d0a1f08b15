import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 6.1 File format. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '6.1',
    test: 1,
    object: 'file',
    check: 'file_header',
    says: 'The file header is %PDF-1.n, n a digit from 0 to 7, followed by a single end-of-line marker',
    fault: (file) => {
      if (file.headerOffset < 0) return 'no %PDF- header in the first KiB';
      if (!/^1\.[0-7]$/.test(file.version ?? ''))
        return `the header is "%PDF-${(file.version ?? '').slice(0, 16)}"`;
      return file.singleEol ? undefined : 'the header line is not ended by a single end-of-line marker';
    },
    fix: 'save the file as PDF 1.7 (or an earlier 1.x): its first line must be %PDF-1.n and nothing else',
  }),
];

export const reasons: Reason[] = [];
