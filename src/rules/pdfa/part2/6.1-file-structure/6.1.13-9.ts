import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.1.13 Implementation limits: DeviceN colour spaces. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 9,
    object: 'deviceN',
    check: 'implementation_limits',
    says: 'A DeviceN colour space has at most 32 colorants',
    fault: (space) =>
      space.colorants.length > 32
        ? `a DeviceN colour space of ${space.colorants.length} colorants`
        : undefined,
    fix: 'split the DeviceN colour space into spaces of at most 32 colorants, or convert its colours to an ICC-based space',
  }),
];
export const reasons: Reason[] = [];
