/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { PDFA_RULES } from '../../src/rules/pdfa/index.js';
import { ruleId, type Rule, type Specification } from '../../src/rules/rule.js';
import { judgeBytes, type FixturePairs } from '../rules/fixtures.js';

/**
 * Every rule's fixture pair, through the reader, the model and every rule of the part (no server): the pass
 * file breaks no rule of its part, the fail file breaks its own rule. `npm run judge:fixtures` sends the same
 * files through the public API.
 */
const modules = import.meta.glob<{ fixtures: FixturePairs }>('../rules/pdfa/**/*.ts', { eager: true });
const rulesModules = import.meta.glob<{ rules: Rule[] }>('../../src/rules/pdfa/part*/**/*.ts', {
  eager: true,
});

const PARTS: Record<string, 1 | 2 | 3> = { 'ISO 19005-1': 1, 'ISO 19005-2': 2, 'ISO 19005-3': 3 };

const cases = Object.entries(rulesModules).flatMap(([file, module]) => {
  const fixtureFile = file.replace('../../src/rules/pdfa/', '../rules/pdfa/');
  return module.rules.flatMap((rule) =>
    rule.specifications.map((specification) => ({
      rule,
      specification,
      pair: modules[fixtureFile]?.fixtures[rule.test],
      name: `${specification} ${ruleId(rule)}`,
    })),
  );
});

const rulesOf = (specification: Specification) =>
  PDFA_RULES.filter((r) => r.specifications.includes(specification));
const describeFailures = (failures: ReturnType<typeof judgeBytes>) =>
  failures.map((f) => `${f.clause}-${f.test}: ${f.examples.join('; ')}`);

describe('rule fixture pairs', () => {
  it('every rule has its pair', () => {
    expect(cases.filter((c) => !c.pair).map((c) => c.name)).toEqual([]);
  });

  for (const { rule, specification, pair, name } of cases) {
    if (!pair) continue;
    const part = PARTS[specification]!;
    it(`${name}: the pass file breaks no rule of ${specification}`, () => {
      expect(describeFailures(judgeBytes(pair.pass(part), rulesOf(specification)))).toEqual([]);
    });
    it(`${name}: the fail file breaks it`, () => {
      const failures = judgeBytes(pair.fail(part), rulesOf(specification));
      expect(
        failures.some((f) => f.clause === rule.clause && f.test === rule.test),
        `${name} did not fail; found: ${describeFailures(failures).join(' | ') || 'nothing'}`,
      ).toBe(true);
    });
  }
});
