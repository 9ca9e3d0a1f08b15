import type { Reason, Rule } from '../../../rule.js';
import { deviceNColorantsRule } from '../../part1/6.1-file-structure/6.1.12-9.js';
import { clauseTests } from '../../shared/numbering.js';

/** ISO 19005-2 and -3, 6.1.13 Implementation limits: DeviceN colour spaces. */
export const rules: Rule[] = [
  deviceNColorantsRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.1.13')(9), 32),
];
export const reasons: Reason[] = [];
