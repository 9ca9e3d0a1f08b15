import { rule, type Reason, type Rule } from '../../../rule.js';

const DIGESTS = ['DigestLocation', 'DigestMethod', 'DigestValue'];

/** ISO 19005-2 and -3, 6.1.12 Permissions. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.12',
    test: 1,
    object: 'perms',
    check: 'permissions',
    says: 'A permissions dictionary has no keys other than UR3 and DocMDP',
    fault: (perms) => {
      const others = perms.keys.filter((key) => key !== 'UR3' && key !== 'DocMDP');
      return others.length > 0 ? `it has /${others.join(', /')}` : undefined;
    },
    fix: 'remove the permissions other than UR3 and DocMDP',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.12',
    test: 2,
    object: 'signature_reference',
    check: 'permissions',
    says: 'With DocMDP, a signature reference has no DigestLocation, DigestMethod or DigestValue',
    fault: (reference) => {
      const digests = reference.keys.filter((key) => DIGESTS.includes(key));
      return reference.permsHaveDocMDP && digests.length > 0 ? `it has /${digests.join(', /')}` : undefined;
    },
    fix: 'sign the file again without digests in the signature references (/DigestLocation, /DigestMethod, /DigestValue)',
  }),
];
export const reasons: Reason[] = [];
