import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.2.2 Content streams. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.2',
    test: 1,
    object: 'undefinedOperator',
    check: 'content_operators',
    says: 'Content streams use only the operators ISO 32000-1 defines, even inside BX/EX compatibility sections',
    fault: (op) =>
      `the operator "${op.operator}"${op.inCompatibilitySection ? ' (inside BX/EX)' : ''}, which ISO 32000-1 does not define`,
    fix: 'remove the undefined operator from the content stream (save the file again with a PDF/A writer)',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.2',
    test: 2,
    object: 'contentStream',
    check: 'content_resources',
    says: 'A form XObject, pattern or Type 3 glyph that uses resources has a /Resources dictionary of its own',
    fault: (stream) =>
      stream.inheritedResourceNames.length > 0
        ? `no /Resources of its own, and it uses ${stream.inheritedResourceNames.slice(0, 3).join(', ')} of the resources of what draws it`
        : undefined,
    fix: 'give the form XObject (or pattern, or Type 3 font) a /Resources dictionary with the resources its content uses',
  }),
];
export const reasons: Reason[] = [];
