import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 6.2 Tagged PDF (MarkInfo). */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '6.2',
    test: 1,
    object: 'catalog',
    check: 'tagged',
    says: 'The catalog has a MarkInfo dictionary whose Marked entry is true',
    fault: (catalog) =>
      catalog.marked === true
        ? undefined
        : !catalog.markInfo
          ? 'no /MarkInfo dictionary'
          : catalog.marked === null
            ? '/MarkInfo has no /Marked entry'
            : `/MarkInfo /Marked is ${catalog.marked === false ? 'false' : 'not a boolean'}`,
    fix: 'make the file as tagged PDF and set /MarkInfo << /Marked true >> in the catalog',
  }),
];

export const reasons: Reason[] = [];
