import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.1.3 File trailer. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.3',
    test: 1,
    object: 'file',
    check: 'trailer_id',
    says: 'The file trailer (a linearized file’s first-page trailer) has an /ID of two file identifiers',
    fault: (file) => {
      const id = file.linearized ? file.firstPageTrailerId : file.lastTrailerId;
      const which = file.linearized ? 'the first-page trailer' : 'the last trailer';
      if (id === null) return `${which} has no /ID`;
      return id.length === 2 && id.every((s) => s.length > 0)
        ? undefined
        : `the /ID of ${which} is not two file identifiers`;
    },
    fix: 'write an /ID (two file identifiers) in the trailer, as a PDF/A writer does',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.3',
    test: 2,
    object: 'trailer',
    check: 'not_encrypted',
    says: 'No trailer has an /Encrypt entry',
    fault: (trailer) => (trailer.keys.includes('Encrypt') ? 'it has an /Encrypt entry' : undefined),
    fix: 'save the file without encryption or passwords',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.3',
    test: 3,
    object: 'file',
    check: 'end_of_file',
    says: 'Nothing follows the last %%EOF marker but one optional end-of-line marker',
    fault: (file) =>
      file.bytesAfterEof !== null && file.bytesAfterEof > 0
        ? `${file.bytesAfterEof.toLocaleString('en')} bytes follow the last %%EOF`
        : undefined,
    fix: 'remove what follows the last %%EOF marker (or save the file again with a PDF/A writer)',
  }),
];
export const reasons: Reason[] = [];
