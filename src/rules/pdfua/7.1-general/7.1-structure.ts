import type { StructElementNode } from '../../../pdf/model/structure.js';
import { STANDARD_STRUCTURE_TYPES } from '../../../pdf/model/structure/tree.js';
import { rule, type Reason, type Rule } from '../../rule.js';
import { clauseTests } from '../../pdfa/shared/numbering.js';

const at = clauseTests(['ISO 14289-1'], '7.1');

/** A type written in /S that is not standard, and whose role map chain ends on no standard type (or loops). */
function unmappedFault({ element }: StructElementNode): string | undefined {
  if (element.type === undefined || STANDARD_STRUCTURE_TYPES.has(element.type)) return undefined;
  if (element.standardType !== undefined) return undefined;
  return element.circularMapping
    ? `/${element.type} is not a standard type and the role map goes round in a circle from it`
    : `/${element.type} is not a standard type and the role map leads to none`;
}

function circularFault({ element }: StructElementNode): string | undefined {
  return element.circularMapping
    ? `the role map's chain from /${element.type} comes back on itself`
    : undefined;
}

function remappedFault(node: StructElementNode): string | undefined {
  return node.standardTypeRemappedTo === undefined
    ? undefined
    : `the role map maps the standard type /${node.element.type} to /${node.standardTypeRemappedTo}`;
}

/** No /P at all (what a /P that is there points to is not this rule's: an unreadable object is not judged). */
const parentFault = ({ element }: StructElementNode): string | undefined =>
  element.dict.has('P') ? undefined : 'it has no /P (parent) entry';

/** ISO 14289-1, 7.1 General: structure types and role mapping. */
export const rules: Rule[] = [
  rule({
    ...at(5),
    object: 'struct_element',
    check: 'structure_types',
    says: "Every non-standard structure type is mapped, directly or through other types, to a standard one in the root's role map",
    fault: unmappedFault,
    fix: "map the type in the structure tree root's /RoleMap to the standard type nearest in meaning (for example /Footnote /Note), or use the standard type itself",
  }),
  rule({
    ...at(6),
    object: 'struct_element',
    check: 'role_map',
    says: 'The role map has no circular mapping',
    fault: circularFault,
    fix: "break the loop in the structure tree root's /RoleMap: each chain of mappings must end on a standard structure type",
  }),
  rule({
    ...at(7),
    object: 'struct_element',
    check: 'role_map',
    says: 'Standard structure types are not remapped in the role map',
    fault: remappedFault,
    fix: "remove the standard type's entry from the structure tree root's /RoleMap (a standard type keeps its own meaning); give the element a type of its own if it means something else",
  }),
  rule({
    ...at(12),
    object: 'struct_element',
    check: 'structure_parents',
    says: 'Every structure element dictionary has its parent in a /P entry',
    fault: parentFault,
    fix: 'write /P in every structure element: a reference to the element that holds it, or to the structure tree root for its top-level elements',
  }),
];

export const reasons: Reason[] = [];
