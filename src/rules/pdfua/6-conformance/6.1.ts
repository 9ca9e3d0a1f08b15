import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 6.1 File format. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '6.1',
    test: 1,
    object: 'file',
    check: 'file_header',
    says: 'The file header is %PDF-1.n, n a digit from 0 to 7',
    // the published test reads the header's version only (/^%PDF-1\.[0-7]$/), not what ends its line
    fault: (file) => {
      if (file.headerOffset < 0) return 'no %PDF- header in the first KiB';
      const version = (file.version ?? '').trimEnd();
      return /^1\.[0-7]$/.test(version) ? undefined : `the header is "%PDF-${version.slice(0, 16)}"`;
    },
    fix: 'save the file as PDF 1.7 (or an earlier 1.x): its first line must be %PDF-1.n and nothing else',
  }),
];

export const reasons: Reason[] = [];
