import { rule, type Reason, type Rule } from '../../../rule.js';

/** ISO 19005-2 and -3, 6.9 Optional content. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.9',
    test: 1,
    object: 'oc_config',
    check: 'optional_content',
    says: 'Every optional content configuration (D and those of Configs) has the Name key, not empty',
    fault: (config) =>
      config.name === null ? 'it has no /Name' : config.name === '' ? 'its /Name is empty' : undefined,
    fix: 'give every optional content configuration a /Name',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.9',
    test: 2,
    object: 'oc_config',
    check: 'optional_content',
    says: 'The Name of an optional content configuration is unique among them',
    fault: (config) =>
      config.nameDuplicated ? `another configuration is also named "${config.name}"` : undefined,
    fix: 'give every optional content configuration a name of its own',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.9',
    test: 3,
    object: 'oc_config',
    check: 'optional_content',
    says: 'An Order array lists every optional content group of the file',
    fault: (config) =>
      config.groupsMissingFromOrder
        ? `its /Order leaves out ${config.groupsMissingFromOrder} of the groups (/OCGs)`
        : undefined,
    fix: 'list every optional content group in the configuration’s /Order (or remove /Order)',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.9',
    test: 4,
    object: 'oc_config',
    check: 'optional_content',
    says: 'No optional content configuration has the AS key',
    fault: (config) => (config.hasAS ? 'it has /AS (groups switched by usage)' : undefined),
    fix: 'remove /AS from the optional content configuration',
  }),
];
export const reasons: Reason[] = [];
