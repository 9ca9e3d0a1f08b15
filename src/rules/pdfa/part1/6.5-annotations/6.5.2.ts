import { rule, type Reason, type Rule } from '../../../rule.js';

/** The annotation types PDF Reference 1.4 (8.4.5) defines, less FileAttachment, Sound and Movie. */
const PERMITTED = new Set([
  ...['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Highlight', 'Underline', 'Squiggly'],
  ...['StrikeOut', 'Stamp', 'Ink', 'Popup', 'Widget', 'PrinterMark', 'TrapNet'],
]);

/** ISO 19005-1, 6.5.2 Annotation types. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.5.2',
    test: 1,
    object: 'annotation',
    check: 'annotation_types',
    says: 'Only annotation types PDF Reference 1.4 defines, and none of FileAttachment, Sound and Movie',
    fault: (a) =>
      a.subtype === null
        ? 'it has no /Subtype'
        : PERMITTED.has(a.subtype)
          ? undefined
          : `its type is ${a.subtype}`,
    fix: 'remove the annotation (file attachments, sounds, movies and types after PDF 1.4 are not permitted in PDF/A-1)',
  }),
];
export const reasons: Reason[] = [];
