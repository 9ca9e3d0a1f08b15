import type { ObjectJudges } from '../pdf/facts.js';
import { judgeDocument, judgePage } from './engine.js';
import { MODEL_FAMILIES } from './families.js';
import { PDFA_RULES } from './pdfa/index.js';
import { PDFUA_RULES } from './pdfua/index.js';
import type { Rule } from './rule.js';

/**
 * The sets of published rules a run is judged by, by name: every part of ISO 19005 at once (the profile picks
 * the part it judges by; judging one part only costs the same, the model's reading is the cost), ISO 14289-1, or every rule written here (what the tests' in-process reports read,
 * so that any profile can judge them). A kind no rule of the set reads is not built.
 */
export const RULE_SETS = {
  'ISO 19005': PDFA_RULES,
  'ISO 14289-1': PDFUA_RULES,
  every: [...PDFA_RULES, ...PDFUA_RULES],
} satisfies Record<string, readonly Rule[]>;

export type RuleSetName = keyof typeof RULE_SETS;

/** A set's rules; a name the thread does not know judges by none (the task's sender and this module disagree). */
const rulesOf = (ruleSet: string): readonly Rule[] => RULE_SETS[ruleSet as RuleSetName] ?? [];

/**
 * The published rules as the parser thread runs them: the file's objects in its document task, each page's
 * content in the page's task.
 */
export const RULE_JUDGES: ObjectJudges = {
  document: (cos, ruleSet) =>
    judgeDocument(rulesOf(ruleSet), MODEL_FAMILIES, { cos, head: cos.read(0, 1024) }, { rules: PDFA_RULES }),
  page: (cos, page, pageNumber, ruleSet) =>
    judgePage(
      rulesOf(ruleSet),
      MODEL_FAMILIES,
      { cos, page, pageNumber, resources: cos.inherited(page, 'Resources') },
      { rules: PDFA_RULES },
    ),
};

/** This module, as a parser thread imports it (PoolOptions.judges): its .ts source under tsx, .js in dist. */
export const RULE_JUDGES_MODULE = import.meta.url;
