import { SyntaxFailure } from '../pdf/cos/syntax.js';
import type { Builders, DocumentSource, Emitter, PageSource } from '../pdf/model/node.js';
import type { KindName, Kinds } from '../pdf/model/kinds.js';
import type { Rule, RuleContext, RuleFailure } from './rule.js';

/** The most objects one rule names in a failure; the count is always whole. */
export const MAX_EXAMPLES = 5;

/** Counts what each rule finds; one per judging of a file or a page. */
class Tally implements Emitter<Kinds> {
  private readonly byKind = new Map<KindName, Rule[]>();
  private readonly found = new Map<Rule, { objects: number; examples: string[] }>();

  private readonly context: RuleContext;

  constructor(rules: readonly Rule[], context: RuleContext = { rules }) {
    this.context = context;
    for (const r of rules) {
      const list = this.byKind.get(r.object) ?? [];
      list.push(r);
      this.byKind.set(r.object, list);
    }
  }

  wants(kind: KindName): boolean {
    return this.byKind.has(kind);
  }

  emit(kind: KindName, node: { where: string }): void {
    for (const r of this.byKind.get(kind) ?? []) {
      const fault = (r.fault as (n: unknown, c: RuleContext) => string | undefined)(node, this.context);
      if (fault === undefined) continue;
      const tally = this.found.get(r) ?? { objects: 0, examples: [] };
      tally.objects++;
      if (tally.examples.length < MAX_EXAMPLES) tally.examples.push(`${node.where}: ${fault}`.slice(0, 300));
      this.found.set(r, tally);
    }
  }

  failures(): RuleFailure[] {
    return [...this.found].flatMap(([r, { objects, examples }]) =>
      r.specifications.map((specification) => ({
        specification,
        clause: r.clause,
        test: r.test,
        objects,
        examples,
      })),
    );
  }
}

/**
 * Runs one builder; a builder that throws ends with what it found (a file's bytes can stop any reader), and
 * never stops the other families.
 */
function guarded(build: () => void): void {
  try {
    build();
  } catch (error) {
    if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
  }
}

/** The rules' failures over a file's document kinds. */
export function judgeDocument(
  rules: readonly Rule[],
  families: readonly Builders<Kinds>[],
  source: DocumentSource,
  context?: RuleContext,
): RuleFailure[] {
  const tally = new Tally(rules, context);
  for (const family of families) if (family.document) guarded(() => family.document!(source, tally));
  return tally.failures();
}

/** The rules' failures over one page's kinds. */
export function judgePage(
  rules: readonly Rule[],
  families: readonly Builders<Kinds>[],
  source: PageSource,
  context?: RuleContext,
): RuleFailure[] {
  const tally = new Tally(rules, context);
  for (const family of families) if (family.page) guarded(() => family.page!(source, tally));
  return tally.failures();
}

/** Failures of the same rule on many pages, as one: objects summed, the first examples kept. */
export function mergeFailures(lists: readonly (readonly RuleFailure[])[]): RuleFailure[] {
  const merged = new Map<string, RuleFailure>();
  for (const list of lists)
    for (const f of list) {
      const key = `${f.specification} ${f.clause}-${f.test}`;
      const had = merged.get(key);
      if (!had) merged.set(key, { ...f, examples: [...f.examples] });
      else {
        had.objects += f.objects;
        for (const e of f.examples) if (had.examples.length < MAX_EXAMPLES) had.examples.push(e);
      }
    }
  return [...merged.values()];
}
