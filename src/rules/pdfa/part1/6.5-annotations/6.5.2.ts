import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';

/** The annotation types a part permits, and how it says and fixes the rule. */
export interface AnnotationTypeWording {
  permitted: ReadonlySet<string>;
  says: string;
  fix: string;
}

/** The rule of the annotation types a part permits, as each part numbers and words it. */
export const annotationTypeRule = (at: Numbering, wording: AnnotationTypeWording): Rule =>
  rule({
    ...at,
    object: 'annotation',
    check: 'annotation_types',
    says: wording.says,
    fault: (a) =>
      a.subtype === null
        ? 'it has no /Subtype'
        : wording.permitted.has(a.subtype)
          ? undefined
          : `its type is ${a.subtype}`,
    fix: wording.fix,
  });

/** The annotation types PDF Reference 1.4 (8.4.5) defines, less FileAttachment, Sound and Movie. */
const PERMITTED = new Set([
  ...['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Highlight', 'Underline', 'Squiggly'],
  ...['StrikeOut', 'Stamp', 'Ink', 'Popup', 'Widget', 'PrinterMark', 'TrapNet'],
]);

/** ISO 19005-1, 6.5.2 Annotation types. */
export const rules: Rule[] = [
  annotationTypeRule(clauseTests(['ISO 19005-1'], '6.5.2')(1), {
    permitted: PERMITTED,
    says: 'Only annotation types PDF Reference 1.4 defines, and none of FileAttachment, Sound and Movie',
    fix: 'remove the annotation (file attachments, sounds, movies and types after PDF 1.4 are not permitted in PDF/A-1)',
  }),
];
export const reasons: Reason[] = [];
