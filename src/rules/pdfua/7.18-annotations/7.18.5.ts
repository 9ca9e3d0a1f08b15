import { rule, type Reason, type Rule } from '../../rule.js';
import { nestingFault, unseen } from './7.18.1.js';

/** ISO 14289-1, 7.18.5 Links. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.5',
    test: 1,
    object: 'annotation',
    check: 'annotations_tagged',
    says: 'A Link annotation is nested in a Link element',
    fault: (a) => (a.subtype !== 'Link' || unseen(a) ? undefined : nestingFault(a, 'Link')),
    fix: 'tag the link: a Link structure element holding the link text and an object reference (OBJR) to the annotation',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.5',
    test: 2,
    object: 'annotation',
    check: 'link_descriptions',
    says: 'A Link annotation has an alternate description in /Contents',
    fault: (a) =>
      a.subtype !== 'Link' || unseen(a) || a.hasContents
        ? undefined
        : 'it has no /Contents (or an empty one)',
    fix: 'give the link annotation a /Contents that says where it leads',
  }),
];

export const reasons: Reason[] = [];
