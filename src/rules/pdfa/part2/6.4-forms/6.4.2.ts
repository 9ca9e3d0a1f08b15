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
    says: 'The document catalog has no NeedsRendering key (false, its default, says the same as none)',
    // The clause forbids the key; the published test (veraPDF's) forbids its value: /NeedsRendering false
    // asks a viewer for nothing (ISO 32000-1, Table 28: false is the default), so the pages still hold what is
    // shown. We keep the test's reading, so that a file the published rule passes is not refused here.
    fault: (doc) =>
      doc.needsRendering === null || doc.needsRendering === false
        ? undefined
        : doc.needsRendering === true
          ? 'the catalog has /NeedsRendering true'
          : 'the catalog has /NeedsRendering, not a boolean',
    fix: 'remove /NeedsRendering from the catalog (the pages must hold what is shown, not an XFA form)',
  }),
];
export const reasons: Reason[] = [];
