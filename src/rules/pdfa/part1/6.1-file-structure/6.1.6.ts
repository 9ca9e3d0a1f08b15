import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests } from '../../shared/numbering.js';

/** The hexadecimal string rules (whole bytes, hex digits only), as each part numbers them. */
export const hexStringRules = (at: ClauseTests): Rule[] => [
  rule({
    ...at(1),
    object: 'string',
    check: 'hex_strings',
    says: 'A hexadecimal string holds an even number of digits',
    fault: (s) =>
      s.hex && s.hexDigits % 2 === 1 ? `a hexadecimal string of ${s.hexDigits} digits` : undefined,
    fix: 'write each hexadecimal string as whole bytes, two digits each (save the file again with a PDF/A writer)',
  }),
  rule({
    ...at(2),
    object: 'string',
    check: 'hex_strings',
    says: 'A hexadecimal string holds only digits 0-9, A-F and a-f (and white space)',
    fault: (s) =>
      s.hex && !s.hexOnlyDigits ? 'a hexadecimal string with a byte that is no hex digit' : undefined,
    fix: 'write hexadecimal strings with the digits 0-9 and A-F only (save the file again with a PDF/A writer)',
  }),
];

/** ISO 19005-1, 6.1.6 String objects. */
export const rules: Rule[] = hexStringRules(clauseTests(['ISO 19005-1'], '6.1.6'));
export const reasons: Reason[] = [];
