import type { AnnotationNode } from '../../../pdf/model/interactive.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/** The Hidden annotation flag (ISO 32000-1 12.5.3, bit 2). */
const FLAG_HIDDEN = 2;

/**
 * An annotation no reader of the page meets: Hidden, or with its rectangle wholly outside the page's crop
 * box. ISO 14289-1's annotation rules leave such annotations alone.
 */
export const unseen = (a: AnnotationNode): boolean =>
  (a.flags !== null && (a.flags & FLAG_HIDDEN) !== 0) || a.outsideCropBox;

/** The standard types of the structure elements that hold the annotation, as the reader is told them. */
export const holderTypes = (a: AnnotationNode): string[] =>
  a.enclosingElements.map((e) => e.type ?? '(no /S)');

/**
 * What is wrong with an annotation that shall be nested in an element of standard type `type`: the element its
 * /StructParent names in the parent tree is none, or of another type. A structural content item has a
 * /StructParent (ISO 32000-1 14.7.4.4, Table 164), so an object reference alone does not nest it, as veraPDF's
 * published tests read it (`structParentStandardType`).
 */
export function nestingFault(a: AnnotationNode, type: string): string | undefined {
  const holders = a.enclosingElements.filter((e) => e.via === 'StructParent');
  if (holders.some((e) => e.standardType === type)) return undefined;
  if (holders.length === 0)
    return a.structParent === null
      ? a.enclosingElements.length > 0
        ? 'it has no /StructParent: an object reference in the structure tree names it, but it does not name its element'
        : 'it is in no structure element (no /StructParent, no object reference)'
      : `its /StructParent ${a.structParent} names no structure element in the parent tree`;
  return `it is nested in ${holders.map((e) => e.type ?? '(no /S)').join(' and ')}, not in ${type}`;
}

/** An alternate description of the annotation: /Contents, or the /Alt of an element that holds it. */
export const described = (a: AnnotationNode): boolean =>
  a.hasContents || a.enclosingElements.some((e) => e.hasAlt);

/**
 * Subtypes with nesting rules of their own (7.18.4, 7.18.5, 7.18.8), and Popup: a popup is no content of its
 * own but the window in which its parent markup annotation's text is edited (ISO 32000-1 12.5.6.14), so the
 * parent is what is tagged and described.
 */
const NESTED_ELSEWHERE = new Set(['Widget', 'Link', 'PrinterMark', 'Popup']);

/** ISO 14289-1, 7.18.1 Annotations: general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.1',
    test: 1,
    object: 'annotation',
    check: 'annotations_tagged',
    says: 'An annotation other than a Widget, Link or PrinterMark is nested in an Annot element',
    fault: (a) =>
      (a.subtype !== null && NESTED_ELSEWHERE.has(a.subtype)) || unseen(a)
        ? undefined
        : nestingFault(a, 'Annot'),
    fix: 'tag the annotation: an Annot structure element holding an object reference (OBJR) to it, with the annotation’s /StructParent naming that element in the parent tree',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.1',
    test: 2,
    object: 'annotation',
    check: 'annotation_descriptions',
    says: 'An annotation other than a Widget has /Contents or an /Alt on the element that holds it',
    // a PrinterMark is an artifact, as a hidden page element is (7.18.8), and a Popup shows its parent's
    // /Contents: neither has anything of its own to describe
    fault: (a) =>
      a.subtype === 'Widget' ||
      a.subtype === 'PrinterMark' ||
      a.subtype === 'Popup' ||
      unseen(a) ||
      described(a)
        ? undefined
        : 'it has neither /Contents nor an /Alt on the structure element that holds it',
    fix: 'describe the annotation: give it a /Contents text (or an /Alt on its Annot structure element)',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.1',
    test: 3,
    object: 'annotation',
    check: 'form_field_descriptions',
    says: 'A form field has a /TU, or each of its widgets an alternate description',
    fault: (a) =>
      a.subtype !== 'Widget' || unseen(a) || a.fieldHasTU || described(a)
        ? undefined
        : 'its field has no /TU, and the widget has neither an /Alt on its Form element nor /Contents',
    fix: 'give the form field a /TU (its name as a person is told it), or the Form element holding the widget an /Alt',
  }),
];

export const reasons: Reason[] = [];
