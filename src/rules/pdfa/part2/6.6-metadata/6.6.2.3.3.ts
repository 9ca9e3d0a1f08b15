import type { Reason, Rule } from '../../../rule.js';
import { extensionSchemaRules } from '../../part1/6.7-metadata/6.7.8.js';

/** ISO 19005-2 and -3, 6.6.2.3.3 Extension schema container schema. */
export const rules: Rule[] = extensionSchemaRules(['ISO 19005-2', 'ISO 19005-3'], 'XMP 2005', {
  undefinedFields: ['6.6.2.3.2', 1],
  container: ['6.6.2.3.3', 1],
  fields: ['6.6.2.3.3', 2],
}).filter((r) => r.clause === '6.6.2.3.3');
export const reasons: Reason[] = [];
