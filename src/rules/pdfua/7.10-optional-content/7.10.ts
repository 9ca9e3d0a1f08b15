import { rule, type Reason, type Rule } from '../../rule.js';

const SPEC = ['ISO 14289-1'] as const;

/** ISO 14289-1, 7.10 Optional content. */
export const rules: Rule[] = [
  rule({
    specifications: SPEC,
    clause: '7.10',
    test: 1,
    object: 'oc_config',
    check: 'optional_content',
    says: 'Each optional content configuration (/D and each of /Configs) has a non-empty /Name',
    fault: (config) =>
      config.name === null ? 'it has no /Name' : config.name === '' ? 'its /Name is empty' : undefined,
    fix: 'give each optional content configuration a /Name that says what it shows',
  }),
  rule({
    specifications: SPEC,
    clause: '7.10',
    test: 2,
    object: 'oc_config',
    check: 'optional_content',
    says: 'No optional content configuration has an /AS entry',
    fault: (config) => (config.hasAS ? 'it has an /AS entry' : undefined),
    fix: 'remove /AS from the optional content configurations (layers must not change with the viewer usage)',
  }),
];

export const reasons: Reason[] = [];
