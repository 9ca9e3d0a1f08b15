import { describe, expect, it } from 'vitest';
import { publishedRules, type ProfileFile } from '../../src/rules/inventory/index.js';
import { PDFA_REASONS, PDFA_RULES } from '../../src/rules/pdfa/index.js';
import { PDFUA_REASONS, PDFUA_RULES } from '../../src/rules/pdfua/index.js';
import type { Specification } from '../../src/rules/rule.js';

/**
 * The published rule sets against what is written here: every listed rule has a rule or a reason, no rule or
 * reason names an id the sets do not list, and none has both.
 */
const PROFILES: [ProfileFile, Specification][] = [
  ['PDFA-1B', 'ISO 19005-1'],
  ['PDFA-2B', 'ISO 19005-2'],
  ['PDFA-3B', 'ISO 19005-3'],
  ['PDFUA-1', 'ISO 14289-1'],
];
const RULES = [...PDFA_RULES, ...PDFUA_RULES];
const REASONS = [...PDFA_REASONS, ...PDFUA_REASONS];
const key = (specification: string, clause: string, test: number) => `${specification} ${clause}-${test}`;

describe('the rule inventory', () => {
  const ours = new Set(RULES.flatMap((r) => r.specifications.map((s) => key(s, r.clause, r.test))));
  const reasoned = new Set(REASONS.flatMap((r) => r.specifications.map((s) => key(s, r.clause, r.test))));
  for (const [profile, specification] of PROFILES) {
    const listed = publishedRules(profile).map((r) => key(specification, r.clause, r.test));
    it(`${profile}: every published rule has a rule or a reason`, () => {
      expect(listed.filter((id) => !ours.has(id) && !reasoned.has(id))).toEqual([]);
    });
    it(`${profile}: at least 95 % of the published rules have a rule`, () => {
      const implemented = listed.filter((id) => ours.has(id)).length;
      expect(implemented / listed.length).toBeGreaterThanOrEqual(0.95);
    });
  }
  it('names no rule the published sets do not list, and none both implemented and reasoned', () => {
    const all = new Set(
      PROFILES.flatMap(([profile, specification]) =>
        publishedRules(profile).map((r) => key(specification, r.clause, r.test)),
      ),
    );
    expect([...ours, ...reasoned].filter((id) => !all.has(id))).toEqual([]);
    expect([...ours].filter((id) => reasoned.has(id))).toEqual([]);
  });
  it('declares each rule once', () => {
    const keys = RULES.flatMap((r) => r.specifications.map((s) => key(s, r.clause, r.test)));
    expect(keys.length).toBe(new Set(keys).size);
  });
});
