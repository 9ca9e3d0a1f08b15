import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 7.15 XFA. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.15',
    test: 1,
    object: 'xfa_form',
    check: 'xfa_forms',
    says: 'The file has no dynamic XFA form (config dynamicRender "required")',
    // a static XFA form, or one whose config cannot be read, is no fault
    fault: (xfa) =>
      xfa.dynamicRender === 'required' ? 'a dynamic XFA form (dynamicRender is required)' : undefined,
    fix: 'save the form as a static (AcroForm) form: a dynamic XFA form is laid out by the viewer and has no tags',
  }),
];

export const reasons: Reason[] = [];
