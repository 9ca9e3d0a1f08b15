import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 7.11 Embedded files. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.11',
    test: 1,
    object: 'embedded_file_specification',
    check: 'embedded_file_specs',
    says: 'The file specification of an embedded file has non-empty /F and /UF',
    fault: (spec) => {
      const missing = [
        ...(spec.fBytes === null ? ['no /F'] : spec.fBytes === 0 ? ['an empty /F'] : []),
        ...(spec.ufBytes === null ? ['no /UF'] : spec.ufBytes === 0 ? ['an empty /UF'] : []),
      ];
      return missing.length === 0 ? undefined : `it has ${missing.join(' and ')}`;
    },
    fix: "give each embedded file's specification its file name in both /F and /UF",
  }),
];

export const reasons: Reason[] = [];
