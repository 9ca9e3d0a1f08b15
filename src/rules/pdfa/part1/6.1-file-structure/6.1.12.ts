import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

const n = (value: number) => value.toLocaleString('en');
const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;
/** Why the count of indirect objects has no rule (ISO 19005-2 6.1.13-7 gives the same reason). */
export const OBJECT_COUNT_REASON =
  'no rule yet: the model counts the objects (file.indirectObjects), but a fixture over 8,388,607 objects makes the reader keep as many cross-reference entries (about 1 GB and 15 s, measured), too much for the fixture suite';
const FIX = 'keep values within PDF 1.4’s implementation limits (PDF Reference 1.4, Appendix C)';

/** The rule of the integer range, as each part numbers it and says its fix. */
export const integerLimitRule = (at: Numbering, fix: string): Rule =>
  rule({
    ...at,
    object: 'number',
    check: 'implementation_limits',
    says: 'No integer is above 2,147,483,647 or below -2,147,483,648',
    fault: (number) =>
      !number.real && (number.value > INT_MAX || number.value < INT_MIN)
        ? `the integer ${n(number.value)}`
        : undefined,
    fix,
  });

/** The rule of the real number range, at most `maxMagnitude` either side of 0, as each part numbers and says it. */
export const realRangeRule = (at: Numbering, maxMagnitude: number, says: string, fix: string): Rule =>
  rule({
    ...at,
    object: 'number',
    check: 'implementation_limits',
    says,
    fault: (number) =>
      number.real && Math.abs(number.value) > maxMagnitude ? `the real number ${number.value}` : undefined,
    fix,
  });

/** The rule of a string's length, at most `maxBytes` (the parts' limits differ), as each part numbers it. */
export const stringLengthRule = (at: Numbering, maxBytes: number, fix: string): Rule =>
  rule({
    ...at,
    object: 'string',
    check: 'implementation_limits',
    says: `No string is longer than ${n(maxBytes)} bytes`,
    fault: (string) => (string.bytes > maxBytes ? `a string of ${n(string.bytes)} bytes` : undefined),
    fix,
  });

/** The rule of a name's length, as each part numbers it and says its fix. */
export const nameLengthRule = (at: Numbering, fix: string): Rule =>
  rule({
    ...at,
    object: 'name',
    check: 'implementation_limits',
    says: 'No name is longer than 127 bytes',
    fault: (name) => (name.bytes > 127 ? `a name of ${n(name.bytes)} bytes` : undefined),
    fix,
  });

/** The rule of graphics state nesting, as each part numbers it. */
export const nestingLimitRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'graphics_state_save',
    check: 'implementation_limits',
    says: 'q operators nest graphics states at most 28 deep',
    fault: (q) => (q.nesting > 28 ? `a q at nesting level ${q.nesting}` : undefined),
    fix: 'balance q and Q so that graphics states nest at most 28 deep',
  });

const PART1 = ['ISO 19005-1'] as const;

const at = clauseTests(PART1, '6.1.12');

/** ISO 19005-1, 6.1.12 Implementation limits (PDF Reference 1.4, Appendix C). */
export const rules: Rule[] = [
  integerLimitRule(at(1), FIX),
  realRangeRule(at(2), 32_767, 'No real number is above 32,767 or below -32,767', FIX),
  stringLengthRule(at(3), 65_535, FIX),
  nameLengthRule(at(4), FIX),
  rule({
    specifications: PART1,
    clause: '6.1.12',
    test: 5,
    object: 'array',
    check: 'implementation_limits',
    says: 'No array holds more than 8,191 elements',
    fault: (array) => (array.items > 8_191 ? `an array of ${n(array.items)} elements` : undefined),
    fix: FIX,
  }),
  rule({
    specifications: PART1,
    clause: '6.1.12',
    test: 6,
    object: 'dictionary',
    check: 'implementation_limits',
    says: 'No dictionary holds more than 4,095 entries',
    fault: (dict) => (dict.entries > 4_095 ? `a dictionary of ${n(dict.entries)} entries` : undefined),
    fix: FIX,
  }),
  nestingLimitRule(at(8)),
];
export const reasons: Reason[] = [
  {
    specifications: PART1,
    clause: '6.1.12',
    test: 7,
    reason: OBJECT_COUNT_REASON,
  },
];
