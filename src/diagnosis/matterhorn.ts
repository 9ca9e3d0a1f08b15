import { matterhornConditions, matterhornOf } from '../rules/inventory/matterhorn.js';
import type { Draft, Profile } from './checks.js';

type Checkpoint = NonNullable<Profile['matterhorn']>[number];
type ConditionOutcome = Checkpoint['conditions'][number];
type Status = ConditionOutcome['status'];

const ruleIds = (check: Draft) => (check.rules ?? []).map((r) => `${r.clause}-${r.test}`);

/** Each check made of PDF/UA-1 rules, with the Matterhorn conditions its rules stand for. */
export function withConditions(checks: Draft[]): Draft[] {
  return checks.map((check) => {
    if (!check.rules) return check;
    const conditions = [...new Set(ruleIds(check).flatMap(matterhornOf))];
    return conditions.length > 0 ? { ...check, matterhorn: conditions } : check;
  });
}

/**
 * The checks as the Matterhorn Protocol groups PDF/UA faults: every checkpoint and failure condition, each
 * failed when a rule standing for it fails, passed when its rules all pass, "to review by a person" when only a
 * person can judge it (and no rule found it broken), and "not checked" when no published rule stands for it.
 */
export function matterhornCheckpoints(checks: readonly Pick<Draft, 'id' | 'rules'>[]): Checkpoint[] {
  const outcome = new Map<string, { status: 'pass' | 'fail'; check: string }>();
  for (const check of checks)
    for (const r of check.rules ?? [])
      outcome.set(`${r.clause}-${r.test}`, { status: r.status, check: check.id });
  const rulesOf = new Map<string, string[]>();
  for (const rule of outcome.keys())
    for (const condition of matterhornOf(rule))
      rulesOf.set(condition, [...(rulesOf.get(condition) ?? []), rule]);

  const checkpoints = new Map<string, Checkpoint>();
  for (const c of matterhornConditions()) {
    const rules = rulesOf.get(c.condition) ?? [];
    const failed = rules.some((r) => outcome.get(r)!.status === 'fail');
    const status: Status = failed
      ? 'fail'
      : c.how === 'human'
        ? 'review'
        : rules.length === 0
          ? 'not_checked'
          : 'pass';
    let checkpoint = checkpoints.get(c.checkpoint);
    if (!checkpoint) {
      checkpoint = {
        checkpoint: c.checkpoint,
        title: c.checkpointTitle,
        status: 'not_checked',
        conditions: [],
      };
      checkpoints.set(c.checkpoint, checkpoint);
    }
    checkpoint.conditions.push({
      condition: c.condition,
      description: c.description,
      how: c.how,
      status,
      rules,
      checks: [...new Set(rules.map((r) => outcome.get(r)!.check))],
    });
  }
  for (const checkpoint of checkpoints.values()) {
    const statuses = new Set(checkpoint.conditions.map((c) => c.status));
    checkpoint.status = (['fail', 'review', 'pass'] as const).find((s) => statuses.has(s)) ?? 'not_checked';
  }
  return [...checkpoints.values()];
}
