import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests } from '../../shared/numbering.js';
import {
  integerLimitRule,
  nameLengthRule,
  nestingLimitRule,
  OBJECT_COUNT_REASON,
  realRangeRule,
  stringLengthRule,
} from '../../part1/6.1-file-structure/6.1.12.js';

const SPECS = ['ISO 19005-2', 'ISO 19005-3'] as const;
const FIX = 'keep values within the implementation limits of ISO 32000-1, Annex C';

const at = clauseTests(SPECS, '6.1.13');

/** ISO 19005-2 and -3, 6.1.13 Implementation limits (ISO 32000-1, Annex C). */
export const rules: Rule[] = [
  integerLimitRule(at(1), FIX),
  realRangeRule(at(2), 3.403e38, 'No real number is outside the range of +/-3.403 x 10^38', FIX),
  stringLengthRule(at(3), 32_767, FIX),
  nameLengthRule(at(4), FIX),
  rule({
    specifications: SPECS,
    clause: '6.1.13',
    test: 5,
    object: 'number',
    check: 'implementation_limits',
    says: 'No real number other than 0 is closer to zero than +/-1.175 x 10^-38',
    fault: (number) =>
      number.real && number.value !== 0 && Math.abs(number.value) < 1.175e-38
        ? `the real number ${number.value}`
        : undefined,
    fix: 'write such values as 0 (ISO 32000-1, Annex C)',
  }),
  nestingLimitRule(at(8)),
  rule({
    specifications: SPECS,
    clause: '6.1.13',
    test: 11,
    object: 'page_box',
    check: 'implementation_limits',
    says: 'No page boundary is less than 3 or more than 14,400 units in either direction',
    fault: (box) =>
      [box.width, box.height].some((side) => side < 3 || side > 14_400)
        ? `${round(box.width)} x ${round(box.height)} units`
        : undefined,
    fix: 'make each page boundary 3 to 14,400 units wide and high',
  }),
];
const round = (value: number) => Math.round(value * 100) / 100;

export const reasons: Reason[] = [
  {
    specifications: SPECS,
    clause: '6.1.13',
    test: 7,
    reason: OBJECT_COUNT_REASON,
  },
];
