import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.10 Alternate presentations and transitions. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.10',
    test: 1,
    object: 'document',
    check: 'alternate_presentations',
    says: "The document's name dictionary has no AlternatePresentations entry",
    fault: (doc) =>
      doc.alternatePresentations ? 'the name dictionary has /AlternatePresentations' : undefined,
    fix: 'remove the alternate presentations (slide shows) from /Names',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.10',
    test: 2,
    object: 'page',
    check: 'alternate_presentations',
    says: 'No page dictionary has a PresSteps entry',
    fault: (page) => (page.presSteps ? 'the page has /PresSteps' : undefined),
    fix: 'remove the page’s presentation steps (/PresSteps)',
  }),
];
export const reasons: Reason[] = [];
