import { rule, type Reason, type Rule } from '../../../rule.js';

const n = (value: number) => value.toLocaleString('en');
const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;
/** Why the count of indirect objects has no rule (ISO 19005-2 6.1.13-7 gives the same reason). */
export const OBJECT_COUNT_REASON =
  'no rule yet: the model counts the objects (file.indirectObjects), but a fixture over 8,388,607 objects makes the reader keep as many cross-reference entries (about 1 GB and 15 s, measured), too much for the fixture suite';
const FIX = 'keep values within PDF 1.4’s implementation limits (PDF Reference 1.4, Appendix C)';

/** ISO 19005-1, 6.1.12 Implementation limits (PDF Reference 1.4, Appendix C). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 1,
    object: 'number',
    check: 'implementation_limits',
    says: 'No integer is above 2,147,483,647 or below -2,147,483,648',
    fault: (number) =>
      !number.real && (number.value > INT_MAX || number.value < INT_MIN)
        ? `the integer ${n(number.value)}`
        : undefined,
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 2,
    object: 'number',
    check: 'implementation_limits',
    says: 'No real number is above 32,767 or below -32,767',
    fault: (number) =>
      number.real && Math.abs(number.value) > 32_767 ? `the real number ${number.value}` : undefined,
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 3,
    object: 'string',
    check: 'implementation_limits',
    says: 'No string is longer than 65,535 bytes',
    fault: (string) => (string.bytes > 65_535 ? `a string of ${n(string.bytes)} bytes` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 4,
    object: 'name',
    check: 'implementation_limits',
    says: 'No name is longer than 127 bytes',
    fault: (name) => (name.bytes > 127 ? `a name of ${n(name.bytes)} bytes` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 5,
    object: 'array',
    check: 'implementation_limits',
    says: 'No array holds more than 8,191 elements',
    fault: (array) => (array.items > 8_191 ? `an array of ${n(array.items)} elements` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 6,
    object: 'dictionary',
    check: 'implementation_limits',
    says: 'No dictionary holds more than 4,095 entries',
    fault: (dict) => (dict.entries > 4_095 ? `a dictionary of ${n(dict.entries)} entries` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 8,
    object: 'graphics_state_save',
    check: 'implementation_limits',
    says: 'q operators nest graphics states at most 28 deep',
    fault: (q) => (q.nesting > 28 ? `a q at nesting level ${q.nesting}` : undefined),
    fix: 'balance q and Q so that graphics states nest at most 28 deep',
  }),
];
export const reasons: Reason[] = [
  {
    specifications: ['ISO 19005-1'],
    clause: '6.1.12',
    test: 7,
    reason: OBJECT_COUNT_REASON,
  },
];
