import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.11 Document requirements. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.11',
    test: 1,
    object: 'document',
    check: 'document_requirements',
    says: 'The document catalog has no Requirements key',
    fault: (doc) => (doc.requirements ? 'the catalog has /Requirements' : undefined),
    fix: 'remove /Requirements from the catalog',
  }),
];
export const reasons: Reason[] = [];
