import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.2.10 Content streams. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.2.10',
    test: 1,
    object: 'undefinedOperator',
    check: 'content_operators',
    says: 'Content streams use only the operators PDF Reference 1.4 defines, even inside BX/EX compatibility sections',
    fault: (op) =>
      `the operator "${op.operator}"${op.inCompatibilitySection ? ' (inside BX/EX)' : ''}, which PDF does not define`,
    fix: 'remove the undefined operator from the content stream (save the file again with a PDF/A writer)',
  }),
];
export const reasons: Reason[] = [];
