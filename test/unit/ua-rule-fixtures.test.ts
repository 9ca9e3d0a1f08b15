/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { PDFUA_RULES } from '../../src/rules/pdfua/index.js';
import { ruleId, type Rule } from '../../src/rules/rule.js';
import { judgeBytes, type FixturePairs } from '../rules/fixtures.js';

/**
 * Every PDF/UA-1 rule's fixture pair, through the reader, the model and every rule of ISO 14289-1 (no server):
 * the pass file breaks no rule, the fail file breaks its own. A clause file may add pairs for the allowances
 * its rules name, keyed `<test>.<n>` (a pass file that must keep every rule).
 */
const modules = import.meta.glob<{ fixtures: FixturePairs; allowances?: Record<string, () => Uint8Array> }>(
  '../rules/pdfua/**/*.ts',
  { eager: true },
);
const rulesModules = import.meta.glob<{ rules: Rule[] }>('../../src/rules/pdfua/*/*.ts', { eager: true });

const cases = Object.entries(rulesModules).flatMap(([file, module]) => {
  const fixtureFile = file.replace('../../src/rules/pdfua/', '../rules/pdfua/');
  return module.rules.map((rule) => ({
    rule,
    pair: modules[fixtureFile]?.fixtures[rule.test],
    name: `ISO 14289-1 ${ruleId(rule)}`,
  }));
});
const allowances = Object.entries(modules).flatMap(([file, module]) =>
  Object.entries(module.allowances ?? {}).map(([name, make]) => ({ name: `${file}: ${name}`, make })),
);

const describeFailures = (failures: ReturnType<typeof judgeBytes>) =>
  failures.map((f) => `${f.clause}-${f.test}: ${f.examples.join('; ')}`);

describe('PDF/UA-1 rule fixture pairs', () => {
  it('every rule has its pair', () => {
    expect(cases.filter((c) => !c.pair).map((c) => c.name)).toEqual([]);
  });

  for (const { rule, pair, name } of cases) {
    if (!pair) continue;
    it(`${name}: the pass file breaks no rule of ISO 14289-1`, () => {
      expect(describeFailures(judgeBytes(pair.pass(2), PDFUA_RULES))).toEqual([]);
    });
    it(`${name}: the fail file breaks it`, () => {
      const failures = judgeBytes(pair.fail(2), PDFUA_RULES);
      expect(
        failures.some((f) => f.clause === rule.clause && f.test === rule.test),
        `${name} did not fail; found: ${describeFailures(failures).join(' | ') || 'nothing'}`,
      ).toBe(true);
    });
  }

  for (const { name, make } of allowances)
    it(`allowance ${name}: breaks no rule of ISO 14289-1`, () => {
      expect(describeFailures(judgeBytes(make(), PDFUA_RULES))).toEqual([]);
    });
});
