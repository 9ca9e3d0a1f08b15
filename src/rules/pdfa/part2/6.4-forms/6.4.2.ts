import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.4.2 XFA. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.2',
    test: 1,
    object: 'acroform',
    check: 'xfa_forms',
    says: 'The interactive form dictionary has no XFA key',
    fault: (form) => (form.xfa ? 'the interactive form has an XFA form (/XFA)' : undefined),
    fix: 'remove the XFA form (/XFA): keep the AcroForm fields, with their appearances',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.4.2',
    test: 2,
    object: 'document',
    check: 'xfa_forms',
    says: 'The document catalog has no NeedsRendering key',
    fault: (doc) => (doc.needsRendering ? 'the catalog has /NeedsRendering' : undefined),
    fix: 'remove /NeedsRendering from the catalog (the pages must hold what is shown, not an XFA form)',
  }),
];
export const reasons: Reason[] = [];
