import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.3 File trailer. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.3',
    test: 1,
    object: 'file',
    check: 'trailer_id',
    says: 'The file trailer (a linearized file’s first-page trailer) has an /ID',
    fault: (file) =>
      file.linearized
        ? file.firstPageTrailerId === null
          ? 'the first-page trailer of this linearized file has no /ID'
          : undefined
        : file.lastTrailerId === null
          ? 'the last trailer has no /ID'
          : undefined,
    fix: 'write an /ID (two file identifiers) in the trailer, as a PDF/A writer does',
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.3',
    test: 2,
    object: 'trailer',
    check: 'not_encrypted',
    says: 'No trailer has an /Encrypt entry',
    fault: (trailer) => (trailer.keys.includes('Encrypt') ? 'it has an /Encrypt entry' : undefined),
    fix: 'save the file without encryption or passwords',
  }),
  rule({
    specifications: ['ISO 19005-1'],
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
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.3',
    test: 4,
    object: 'file',
    check: 'trailer_id',
    says: 'In a linearized file, the /ID of the first-page trailer and of the last trailer are the same',
    fault: (file) =>
      file.linearized &&
      file.firstPageTrailerId !== null &&
      file.lastTrailerId !== null &&
      file.firstPageTrailerId.join(' ') !== file.lastTrailerId.join(' ')
        ? 'the first-page trailer and the last trailer give different /ID values'
        : undefined,
    fix: 'write the same /ID in both trailers (or save the file again without linearization)',
  }),
];
export const reasons: Reason[] = [];
