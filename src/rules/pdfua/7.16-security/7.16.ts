import { rule, type Reason, type Rule } from '../../rule.js';

/** Bit 10 of /P (ISO 32000-1, Table 22): extracting text and graphics for accessibility. */
const ACCESSIBILITY = 1 << 9;

/** ISO 14289-1, 7.16 Security. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.16',
    test: 1,
    object: 'encryption',
    check: 'permissions',
    says: "An encrypted file's encryption dictionary has /P with bit 10 set (content extraction for accessibility)",
    fault: (encryption) =>
      encryption.permissions === null
        ? 'the encryption dictionary has no /P'
        : (encryption.permissions & ACCESSIBILITY) !== 0
          ? undefined
          : 'its /P does not permit extracting content for accessibility (bit 10)',
    fix: 'encrypt the file again with the permission to extract content for accessibility (assistive technology) on',
  }),
];

export const reasons: Reason[] = [];
