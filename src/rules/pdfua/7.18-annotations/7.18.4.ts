import { rule, type Reason, type Rule } from '../../rule.js';
import { nestingFault, unseen } from './7.18.1.js';

/** ISO 14289-1, 7.18.4 Widget annotations. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.4',
    test: 1,
    object: 'annotation',
    check: 'form_widgets',
    says: 'A Widget annotation is nested in a Form element',
    fault: (a) => (a.subtype !== 'Widget' || unseen(a) ? undefined : nestingFault(a, 'Form')),
    fix: 'tag the widget: a Form structure element holding an object reference (OBJR) to it, with the widget’s /StructParent naming that element in the parent tree',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.4',
    test: 2,
    object: 'form_element',
    check: 'form_widgets',
    says: 'A Form element without a Role attribute has one child: an object reference to its widget',
    fault: (f) =>
      f.roleAttribute !== null || f.onlyChildIsWidget
        ? undefined
        : f.children === 1
          ? 'it has no Role attribute, and its one child is not an object reference to a widget annotation'
          : `it has no Role attribute and ${f.children} children`,
    fix: 'give the Form element one child, an object reference (OBJR) to its widget annotation, or a PrintField /Role attribute (rb, cb, pb, tv)',
  }),
];

export const reasons: Reason[] = [];
