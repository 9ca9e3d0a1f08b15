import { rule, type Reason, type Rule } from '../../../rule.js';

/** The annotation types ISO 32000-1 (12.5.6) defines, less 3D, Sound, Screen and Movie. */
const PERMITTED = new Set([
  ...['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight'],
  ...['Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Caret', 'Ink', 'Popup', 'FileAttachment'],
  ...['Widget', 'PrinterMark', 'TrapNet', 'Watermark', 'Redact'],
]);

/** ISO 19005-2 and -3, 6.3.1 Annotation types. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.3.1',
    test: 1,
    object: 'annotation',
    check: 'annotation_types',
    says: 'Only annotation types ISO 32000-1 defines, and none of 3D, Sound, Screen and Movie',
    fault: (a) =>
      a.subtype === null
        ? 'it has no /Subtype'
        : PERMITTED.has(a.subtype)
          ? undefined
          : `its type is ${a.subtype}`,
    fix: 'remove the annotation (3D, sound, screen, movie and non-standard annotations are not permitted)',
  }),
];
export const reasons: Reason[] = [];
