import { describe, expect, it } from 'vitest';
import { publishedRules } from '../../src/rules/inventory/index.js';
import { matterhornConditions, matterhornMap, matterhornOf } from '../../src/rules/inventory/matterhorn.js';

/**
 * The Matterhorn Protocol data against itself and against veraPDF's PDF/UA-1 inventory: the map names only
 * rules and conditions that exist, every checkpoint has its conditions, and the conditions only a person can
 * judge are marked so, because a report must never show them as passed.
 */
const conditions = matterhornConditions();
const ids = new Set(conditions.map((c) => c.condition));
const ruleIds = publishedRules('PDFUA-1').map((r) => `${r.clause}-${r.test}`);

describe('the Matterhorn Protocol data', () => {
  it('lists the 137 failure conditions of version 1.1, each once, as NN-NNN under its checkpoint', () => {
    expect(conditions).toHaveLength(137);
    expect(ids.size).toBe(137);
    for (const c of conditions) {
      expect(c.condition).toMatch(/^\d\d-\d\d\d$/);
      expect(c.condition.slice(0, 2)).toBe(c.checkpoint);
      expect(c.section).toMatch(/^UA1:\d/);
      expect(c.description.length).toBeGreaterThan(10);
    }
  });

  it('has at least one condition in every checkpoint 01..31, numbered from 001 without a gap', () => {
    for (let n = 1; n <= 31; n++) {
      const checkpoint = String(n).padStart(2, '0');
      const here = conditions.filter((c) => c.checkpoint === checkpoint).map((c) => c.condition);
      expect(here.length, `checkpoint ${checkpoint}`).toBeGreaterThan(0);
      expect(here).toEqual(here.map((_, i) => `${checkpoint}-${String(i + 1).padStart(3, '0')}`));
      expect(
        new Set(conditions.filter((c) => c.checkpoint === checkpoint).map((c) => c.checkpointTitle)).size,
      ).toBe(1);
    }
  });

  it('flags the conditions only a person can judge: 48 human, 87 machine, 2 with no test of their own', () => {
    const how = (h: string) => conditions.filter((c) => c.how === h).map((c) => c.condition);
    expect(how('human')).toHaveLength(48);
    expect(how('machine')).toHaveLength(87);
    expect(how('none')).toEqual(['23-001', '27-001']);
    // Reading order, semantic tags and meaningful alternative text are the protocol's own examples.
    for (const id of ['01-006', '09-001', '13-001', '13-005', '13-008', '06-004', '11-007', '28-001']) {
      expect(conditions.find((c) => c.condition === id)?.how, id).toBe('human');
    }
    for (const id of ['01-007', '06-002', '13-004', '28-002', '28-005', '31-030']) {
      expect(conditions.find((c) => c.condition === id)?.how, id).toBe('machine');
    }
  });
});

describe('the map from veraPDF PDF/UA-1 rules to Matterhorn conditions', () => {
  const map = matterhornMap();

  it('names only rule ids of PDFUA-1.tsv, each once, and all 106 of them', () => {
    const named = map.map((row) => row.rule);
    expect(named.filter((rule) => !ruleIds.includes(rule))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
    expect([...named].sort()).toEqual([...ruleIds].sort());
    expect(named).toHaveLength(106);
  });

  it('names only conditions of matterhorn.tsv', () => {
    const unknown = map.flatMap((row) =>
      row.conditions.filter((id) => !ids.has(id)).map((id) => `${row.rule}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  it('maps a machine rule to no condition that only a person can decide alone', () => {
    // A failing rule may stand for a human condition (15-005: headers that cannot be determined at all), but
    // never only for human ones: the machine verdict must have a machine condition of its own.
    const how = new Map(conditions.map((c) => [c.condition, c.how]));
    const onlyHuman = map.filter(
      (row) => row.conditions.length > 0 && row.conditions.every((id) => how.get(id) !== 'machine'),
    );
    expect(onlyHuman.map((row) => row.rule)).toEqual([]);
  });

  it('answers by rule id, with nothing for an unknown id', () => {
    expect(matterhornOf('7.1-10')).toEqual(['07-001', '07-002']);
    expect(matterhornOf('7.3-1')).toEqual(['13-004']);
    expect(matterhornOf('5-1')).toEqual(['06-002']);
    expect(matterhornOf('6.1-1')).toEqual([]);
    expect(matterhornOf('9.9-9')).toEqual([]);
  });
});
