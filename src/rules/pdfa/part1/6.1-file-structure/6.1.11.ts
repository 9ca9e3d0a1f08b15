import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.11 Embedded files. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.11',
    test: 1,
    object: 'file_specification',
    check: 'no_embedded_files',
    says: 'A file specification dictionary does not contain the EF key',
    fault: (spec) => (spec.embeddedFile ? 'it embeds a file (/EF)' : undefined),
    fix: 'remove the embedded file (PDF/A-1 embeds no files), or claim PDF/A-2 or PDF/A-3',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.11',
    test: 2,
    object: 'document',
    check: 'no_embedded_files',
    says: "The document's name dictionary does not contain the EmbeddedFiles key",
    fault: (doc) => (doc.embeddedFilesTree ? 'the name dictionary has an /EmbeddedFiles tree' : undefined),
    fix: 'remove the embedded files and the /EmbeddedFiles entry of /Names (PDF/A-1 embeds no files)',
  }),
];
export const reasons: Reason[] = [];
