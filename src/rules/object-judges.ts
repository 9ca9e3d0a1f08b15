import type { ObjectJudges } from '../pdf/facts.js';
import { judgeDocument, judgePage } from './engine.js';
import { MODEL_FAMILIES } from './families.js';
import { PDFA_RULES } from './pdfa/index.js';

/**
 * The published rules as the parser thread runs them: the file's objects in its document task, each page's
 * content in the page's task, every part's rules at once (the profile picks the part it judges by).
 */
export const RULE_JUDGES: ObjectJudges = {
  document: (cos) => judgeDocument(PDFA_RULES, MODEL_FAMILIES, { cos, head: cos.read(0, 1024) }),
  page: (cos, page, pageNumber) =>
    judgePage(PDFA_RULES, MODEL_FAMILIES, {
      cos,
      page,
      pageNumber,
      resources: cos.inherited(page, 'Resources'),
    }),
};

/** This module, as a parser thread imports it (PoolOptions.judges): its .ts source under tsx, .js in dist. */
export const RULE_JUDGES_MODULE = import.meta.url;
