import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The rule of a DeviceN colour space's colorant count, at most `maxColorants` (8 in PDF 1.4, 32 in ISO 32000-1). */
export const deviceNColorantsRule = (at: Numbering, maxColorants: number): Rule =>
  rule({
    ...at,
    object: 'deviceN',
    check: 'implementation_limits',
    says: `A DeviceN colour space has at most ${maxColorants} colorants`,
    fault: (space) =>
      space.colorants.length > maxColorants
        ? `a DeviceN colour space of ${space.colorants.length} colorants`
        : undefined,
    fix: `split the DeviceN colour space into spaces of at most ${maxColorants} colorants, or convert its colours to an ICC-based space`,
  });

/** ISO 19005-1, 6.1.12 Implementation limits: DeviceN colour spaces (PDF Reference 1.4, Appendix C). */
export const rules: Rule[] = [deviceNColorantsRule(clauseTests(['ISO 19005-1'], '6.1.12')(9), 8)];
export const reasons: Reason[] = [];
