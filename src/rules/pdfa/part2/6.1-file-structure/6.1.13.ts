import { rule, type Reason, type Rule } from '../../../rule.js';
import { OBJECT_COUNT_REASON } from '../../part1/6.1-file-structure/6.1.12.js';

const n = (value: number) => value.toLocaleString('en');
const FIX = 'keep values within the implementation limits of ISO 32000-1, Annex C';

/** ISO 19005-2 and -3, 6.1.13 Implementation limits (ISO 32000-1, Annex C). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 1,
    object: 'number',
    check: 'implementation_limits',
    says: 'No integer is above 2,147,483,647 or below -2,147,483,648',
    fault: (number) =>
      !number.real && (number.value > 2_147_483_647 || number.value < -2_147_483_648)
        ? `the integer ${n(number.value)}`
        : undefined,
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 2,
    object: 'number',
    check: 'implementation_limits',
    says: 'No real number is outside the range of +/-3.403 x 10^38',
    fault: (number) =>
      number.real && Math.abs(number.value) > 3.403e38 ? `the real number ${number.value}` : undefined,
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 3,
    object: 'string',
    check: 'implementation_limits',
    says: 'No string is longer than 32,767 bytes',
    fault: (string) => (string.bytes > 32_767 ? `a string of ${n(string.bytes)} bytes` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 4,
    object: 'name',
    check: 'implementation_limits',
    says: 'No name is longer than 127 bytes',
    fault: (name) => (name.bytes > 127 ? `a name of ${n(name.bytes)} bytes` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
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
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 8,
    object: 'graphics_state_save',
    check: 'implementation_limits',
    says: 'q operators nest graphics states at most 28 deep',
    fault: (q) => (q.nesting > 28 ? `a q at nesting level ${q.nesting}` : undefined),
    fix: 'balance q and Q so that graphics states nest at most 28 deep',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
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
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.13',
    test: 7,
    reason: OBJECT_COUNT_REASON,
  },
];
