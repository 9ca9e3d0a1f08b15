import type { Reason, Rule } from '../../../rule.js';
import { annotationTypeRule } from '../../part1/6.5-annotations/6.5.2.js';
import { clauseTests } from '../../shared/numbering.js';

/** The annotation types ISO 32000-1 (12.5.6) defines, less 3D, Sound, Screen and Movie. */
const PERMITTED = new Set([
  ...['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight'],
  ...['Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Caret', 'Ink', 'Popup', 'FileAttachment'],
  ...['Widget', 'PrinterMark', 'TrapNet', 'Watermark', 'Redact'],
]);

/** ISO 19005-2 and -3, 6.3.1 Annotation types. */
export const rules: Rule[] = [
  annotationTypeRule(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.3.1')(1), {
    permitted: PERMITTED,
    says: 'Only annotation types ISO 32000-1 defines, and none of 3D, Sound, Screen and Movie',
    fix: 'remove the annotation (3D, sound, screen, movie and non-standard annotations are not permitted)',
  }),
];
export const reasons: Reason[] = [];
