import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import { endOfFileRule, noEncryptionRule } from '../../part1/6.1-file-structure/6.1.3.js';

const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;

const at = clauseTests(SPECS, '6.1.3');

/** ISO 19005-2 and -3, 6.1.3 File trailer. */
export const rules: Rule[] = [
  rule({
    specifications: SPECS,
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
  noEncryptionRule(at(2)),
  endOfFileRule(at(3)),
];
export const reasons: Reason[] = [];
