import { ruleId, type Rule, type Specification } from '../rules/rule.js';
import { type Draft, type Facts, okPages } from './checks.js';

type RuleFailure = NonNullable<Facts['document']['rule_failures']>[number];
type RuleOutcome = NonNullable<Draft['rules']>[number];

/** The most failing rules one check's message names; its `rules` list has them all. */
const NAMED_IN_MESSAGE = 3;

/** What a failing rule says in a check's message: its id, the first objects that break it, what to change. */
const failureText = (r: Rule, failure: RuleFailure) =>
  `${ruleId(r)}: ${failure.examples.slice(0, 3).join('; ')}${failure.objects > 3 ? ` (${failure.objects} in all)` : ''}: ${r.fix}`;

/**
 * The checks made of published rules, for one specification: each check id with the rules that belong to
 * it, failing when one of them does. A failure is read from the document's objects and from every page's
 * content (`pages[].rule_failures`), and counted once per rule with the pages it was found on.
 */
export function ruleChecks(facts: Facts, specification: Specification, rules: readonly Rule[]): Draft[] {
  const failures = new Map<string, { failure: RuleFailure; pages: number[] }>();
  const add = (failure: RuleFailure, page?: number) => {
    if (failure.specification !== specification) return;
    const key = ruleId(failure);
    const had = failures.get(key);
    if (!had)
      failures.set(key, {
        failure: { ...failure, examples: [...failure.examples] },
        pages: page ? [page] : [],
      });
    else {
      had.failure.objects += failure.objects;
      for (const e of failure.examples) if (had.failure.examples.length < 5) had.failure.examples.push(e);
      if (page && !had.pages.includes(page)) had.pages.push(page);
    }
  };
  for (const f of facts.document.rule_failures ?? []) add(f);
  for (const p of okPages(facts)) for (const f of p.rule_failures ?? []) add(f, p.page);

  const byCheck = new Map<string, Rule[]>();
  for (const r of rules.filter((r) => r.specifications.includes(specification)))
    byCheck.set(r.check, [...(byCheck.get(r.check) ?? []), r]);

  return [...byCheck].map(([id, members]) => {
    const outcomes: RuleOutcome[] = members.map((r) => {
      const found = failures.get(ruleId(r));
      return found
        ? {
            clause: r.clause,
            test: r.test,
            status: 'fail',
            objects: found.failure.objects,
            message: failureText(r, found.failure).slice(0, 2000),
          }
        : { clause: r.clause, test: r.test, status: 'pass', objects: 0, message: r.says };
    });
    const failing = members.filter((r) => failures.has(ruleId(r)));
    const pages = [...new Set(failing.flatMap((r) => failures.get(ruleId(r))!.pages))].sort((a, b) => a - b);
    const first = members[0]!;
    const message =
      failing.length === 0
        ? members.length === 1
          ? first.says
          : `${members.length} rules kept: ${members.map((r) => ruleId(r)).join(', ')}`
        : failing
            .slice(0, NAMED_IN_MESSAGE)
            .map((r) => failureText(r, failures.get(ruleId(r))!.failure))
            .join(' | ') +
          (failing.length > NAMED_IN_MESSAGE ? ` | and ${failing.length - NAMED_IN_MESSAGE} more rules` : '');
    return {
      id,
      severity: 'error',
      status: failing.length === 0 ? 'pass' : 'fail',
      pages,
      message,
      clause: (failing[0] ?? first).clause,
      specification,
      rules: outcomes,
    };
  });
}
