import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-1, 6.1.12 Implementation limits: DeviceN colour spaces (PDF Reference 1.4, Appendix C). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 9,
    object: 'deviceN',
    check: 'implementation_limits',
    says: 'A DeviceN colour space has at most 8 colorants',
    fault: (space) =>
      space.colorants.length > 8
        ? `a DeviceN colour space of ${space.colorants.length} colorants`
        : undefined,
    fix: 'split the DeviceN colour space into spaces of at most 8 colorants, or convert its colours to an ICC-based space',
  }),
];
export const reasons: Reason[] = [];
