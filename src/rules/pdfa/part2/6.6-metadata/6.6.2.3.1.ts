import type { Reason, Rule } from '../../../rule.js';
import { propertyRules } from '../../part1/6.7-metadata/6.7.9.js';

/** ISO 19005-2 and -3, 6.6.2.3.1 XMP properties: the schemas of XMP 2005, or extension schemas. */
export const rules: Rule[] = propertyRules(['ISO 19005-2', 'ISO 19005-3'], 'XMP 2005', '6.6.2.3.1', 1, true);
export const reasons: Reason[] = [];
