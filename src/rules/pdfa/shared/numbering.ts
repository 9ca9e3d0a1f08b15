import type { Specification } from '../../rule.js';

/** Where a part publishes a rule: its specifications, clause and test number (what a shared rule is declared at). */
export interface Numbering {
  specifications: readonly Specification[];
  clause: string;
  test: number;
}

/** The tests of one clause of the given specifications, by number. */
export type ClauseTests = (test: number) => Numbering;

/** The numbering of a clause's tests, for the rules two parts share but number each their own way. */
export const clauseTests =
  (specifications: readonly Specification[], clause: string): ClauseTests =>
  (test) => ({ specifications, clause, test });
