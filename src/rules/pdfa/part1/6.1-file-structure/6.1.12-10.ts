import { rule, type Reason, type Rule } from '../../../rule.js';

const MAX_CID = 65_535;

/** ISO 19005-1, 6.1.12 Implementation limits: the largest CID. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 10,
    object: 'cmap',
    check: 'implementation_limits',
    says: 'An embedded CMap maps no code to a CID above 65,535',
    fault: cidLimitFault,
    fix: 'keep CIDs at 65,535 or below: embed the font with a CMap of smaller CIDs',
  }),
];

/** Shared with ISO 19005-2 6.1.13-10. */
export function cidLimitFault(cmap: { maxCid: number | undefined }): string | undefined {
  return cmap.maxCid !== undefined && cmap.maxCid > MAX_CID
    ? `it maps a code to CID ${cmap.maxCid}`
    : undefined;
}

export const reasons: Reason[] = [];
