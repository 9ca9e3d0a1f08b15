import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.3 Tab order. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.3',
    test: 1,
    object: 'page',
    check: 'tab_order',
    says: 'A page with annotations has /Tabs /S (tab order by structure)',
    fault: (p) =>
      p.annotationCount === 0 || p.tabs === 'S'
        ? undefined
        : p.tabs === null
          ? `it has ${p.annotationCount} annotation${p.annotationCount > 1 ? 's' : ''} and no /Tabs`
          : `it has annotations and /Tabs /${p.tabs}`,
    fix: 'set /Tabs /S in the page dictionary, so that tabbing follows the structure tree',
  }),
];

export const reasons: Reason[] = [];
