import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.13 Optional content. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.13',
    test: 1,
    object: 'document',
    check: 'optional_content',
    says: 'The document catalog does not contain the OCProperties key',
    fault: (doc) => (doc.optionalContent ? 'the catalog has /OCProperties (optional content)' : undefined),
    fix: 'flatten the layers (optional content) and remove /OCProperties, or claim PDF/A-2, which allows them',
  }),
];
export const reasons: Reason[] = [];
