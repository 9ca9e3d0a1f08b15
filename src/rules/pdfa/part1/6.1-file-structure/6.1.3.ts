import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule that no trailer has /Encrypt, as each part numbers it. */
export const noEncryptionRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'trailer',
    check: 'not_encrypted',
    says: 'No trailer has an /Encrypt entry',
    fault: (trailer) => (trailer.keys.includes('Encrypt') ? 'it has an /Encrypt entry' : undefined),
    fix: 'save the file without encryption or passwords',
  });

/** The rule that nothing follows the last %%EOF but an end-of-line marker, as each part numbers it. */
export const endOfFileRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'file',
    check: 'end_of_file',
    says: 'Nothing follows the last %%EOF marker but one optional end-of-line marker',
    fault: (file) =>
      file.bytesAfterEof !== null && file.bytesAfterEof > 0
        ? `${file.bytesAfterEof.toLocaleString('en')} bytes follow the last %%EOF`
        : undefined,
    fix: 'remove what follows the last %%EOF marker (or save the file again with a PDF/A writer)',
  });

const PART1 = ['ISO 19005-1'] as const;

const at = clauseTests(PART1, '6.1.3');

/** ISO 19005-1, 6.1.3 File trailer. */
export const rules: Rule[] = [
  rule({
    specifications: PART1,
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
  noEncryptionRule(at(2)),
  endOfFileRule(at(3)),
  rule({
    specifications: PART1,
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
