import type { CosFile } from '../pdf/cos/file.js';
import type { Builders } from '../pdf/model/node.js';
import type { Kinds } from '../pdf/model/kinds.js';
import { pageEntries } from '../pdf/model/pages.js';
import { judgeDocument, judgePage, mergeFailures } from './engine.js';
import type { Rule, RuleContext, RuleFailure } from './rule.js';

/**
 * The rules' failures over a whole file, its document kinds and every page's, in one thread: what the fixture
 * pairs and the command line judge. A run judges the same way, the document's kinds in its document task and
 * each page's in the page's task.
 */
export function judgeFile(
  cos: CosFile,
  rules: readonly Rule[],
  families: readonly Builders<Kinds>[],
  context?: RuleContext,
): RuleFailure[] {
  const lists = [judgeDocument(rules, families, { cos, head: cos.read(0, 1024) }, context)];
  for (const page of pageEntries(cos))
    lists.push(
      judgePage(
        rules,
        families,
        {
          cos,
          page: page.dict,
          pageNumber: page.pageNumber,
          resources: cos.inherited(page.dict, 'Resources'),
        },
        context,
      ),
    );
  return mergeFailures(lists);
}
