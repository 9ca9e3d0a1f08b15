import { type StructElementNode, TREE_ROOT } from '../../../pdf/model/structure.js';
import { rule, type Reason, type Rule } from '../../rule.js';
import { clauseTests } from '../../pdfa/shared/numbering.js';

const at = clauseTests(['ISO 14289-1'], '7.2');

// Parents and kids are read through the grouping elements NonStruct, Div and Part (StructElementNode): an LI
// in a Div in an L is in the list.

/** An element of standard type `type` whose parent is not of type `parent`. */
const outsideFault =
  (type: string, parent: string) =>
  (node: StructElementNode): string | undefined => {
    if (node.element.standardType !== type) return undefined;
    const actual = node.parentStandardType;
    if (actual === parent) return undefined;
    if (actual === TREE_ROOT) return `a ${type} at the top of the structure tree, not in a ${parent}`;
    return actual === undefined
      ? `a ${type} in an element of no standard type, not in a ${parent}`
      : `a ${type} in a ${actual}, not in a ${parent}`;
  };

/** An element of standard type `type` holding kids of other types than `allowed`. */
const kidsFault =
  (type: string, allowed: readonly string[]) =>
  (node: StructElementNode): string | undefined => {
    if (node.element.standardType !== type) return undefined;
    const others = [...new Set(node.kidStandardTypes.filter((kid) => !allowed.includes(kid)))];
    return others.length === 0 ? undefined : `a ${type} holding ${others.join(', ')}`;
  };

/** An element of standard type `type` with a Caption kid after its first. */
const captionFault =
  (type: string) =>
  (node: StructElementNode): string | undefined => {
    if (node.element.standardType !== type) return undefined;
    const at = node.kidStandardTypes.indexOf('Caption', 1);
    return at < 0 ? undefined : `a ${type} whose kid ${at + 1} is a Caption`;
  };

/** ISO 14289-1, 7.2 Text: lists (ISO 32000-1 14.8.4.3.3) and tables of contents (14.8.4.3.2). */
export const rules: Rule[] = [
  rule({
    ...at(17),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'An LI (list item) element is contained in an L (list) element',
    fault: outsideFault('LI', 'L'),
    fix: 'put each list item (LI) inside the list (L) it belongs to',
  }),
  rule({
    ...at(18),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'An LBody (list item body) element is contained in an LI (list item) element',
    fault: outsideFault('LBody', 'LI'),
    fix: "put each list item's body (LBody) inside its list item (LI), beside the item's label (Lbl)",
  }),
  rule({
    ...at(19),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'An L (list) element contains only L, LI and Caption elements',
    fault: kidsFault('L', ['L', 'LI', 'Caption']),
    fix: 'inside a list (L), put its items in LI elements (a nested list in an L, a title in a Caption); move other elements into the items',
  }),
  rule({
    ...at(20),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'An LI (list item) element contains only Lbl and LBody elements',
    fault: kidsFault('LI', ['Lbl', 'LBody']),
    fix: 'inside a list item (LI), put its label in an Lbl and everything else in an LBody',
  }),
  rule({
    ...at(26),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'A TOCI (table of contents item) element is contained in a TOC (table of contents) element',
    fault: outsideFault('TOCI', 'TOC'),
    fix: 'put each table of contents item (TOCI) inside the table of contents (TOC) it belongs to',
  }),
  rule({
    ...at(27),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'A TOC (table of contents) element contains only TOC, TOCI and Caption elements',
    fault: kidsFault('TOC', ['TOC', 'TOCI', 'Caption']),
    fix: 'inside a table of contents (TOC), put its entries in TOCI elements (a nested contents in a TOC, a title in a Caption)',
  }),
  rule({
    ...at(28),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'A TOC (table of contents) element holds a Caption only as its first kid',
    fault: captionFault('TOC'),
    fix: "move the table of contents' Caption before its entries, as the TOC's first kid",
  }),
  rule({
    ...at(40),
    object: 'struct_element',
    check: 'structure_nesting',
    says: 'An L (list) element holds a Caption only as its first kid',
    fault: captionFault('L'),
    fix: "move the list's Caption before its items, as the L's first kid",
  }),
];

export const reasons: Reason[] = [];
