import type { KindName, Kinds } from '../pdf/model/kinds.js';

/** The standards whose published rules are written here, as veraPDF's validation profiles number them. */
export type Specification = 'ISO 19005-1' | 'ISO 19005-2' | 'ISO 19005-3' | 'ISO 14289-1';

/**
 * One published rule of a standard, in our words: the clause and test number veraPDF's profile gives it, the
 * kind of object it judges, and what is wrong with one such object (`fault`: a few words, or undefined when the
 * object keeps the rule). `fix` says what to change, to the person who made the file.
 *
 * A rule that two parts share word for word (ISO 19005-2 and -3 share all but clause 6.8) is declared once with
 * both specifications.
 */
export interface Rule<K extends KindName = KindName> {
  specifications: readonly Specification[];
  clause: string;
  test: number;
  object: K;
  /** The report check this rule is part of (a check groups the rules of one requirement). */
  check: string;
  /** What the rule asks, in one sentence. */
  says: string;
  fault: (node: Kinds[K], context: RuleContext) => string | undefined;
  fix: string;
}

/**
 * What a rule may read besides its object: the rules being run (a file embedded in another is judged by the
 * rules of the part it claims, PDF/A-2 6.8).
 */
export interface RuleContext {
  rules: readonly Rule[];
}

/** A rule declaration, checked against its kind. */
export const rule = <K extends KindName>(declared: Rule<K>): Rule => declared as unknown as Rule;

/** A rule's id within its specification, as veraPDF writes it: clause, dash, test number. */
export const ruleId = (r: { clause: string; test: number }): string => `${r.clause}-${r.test}`;

/** What one rule found in a file: how many objects break it, and the first few of them. */
export interface RuleFailure {
  specification: Specification;
  clause: string;
  test: number;
  /** Objects that break the rule. */
  objects: number;
  /** The first of them, each "where: what". */
  examples: string[];
}

/**
 * Why a published rule has no rule here: what covers it (another rule, the reader itself), or why it cannot
 * apply to a file this service judges. Written per rule, never per clause.
 */
export interface Reason {
  specifications: readonly Specification[];
  clause: string;
  test: number;
  reason: string;
}
