import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.1.8 Name objects. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.1.8',
    test: 1,
    object: 'text_name',
    check: 'utf8_names',
    says: 'Font names, colorant names and structure types are valid UTF-8 once #-escapes are expanded',
    fault: (name) =>
      name.validUtf8
        ? undefined
        : `the ${name.role} /${[...name.name].map((c) => (c.charCodeAt(0) > 126 ? `#${c.charCodeAt(0).toString(16)}` : c)).join('')} is not valid UTF-8`,
    fix: 'name these fonts, colorants and structure types in UTF-8 (escape each byte of a multi-byte character as #xx)',
  }),
];
export const reasons: Reason[] = [];
