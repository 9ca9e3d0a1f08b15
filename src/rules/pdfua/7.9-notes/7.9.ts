import type { StructElementNode } from '../../../pdf/model/structure.js';
import { rule, type Reason, type Rule } from '../../rule.js';
import { clauseTests } from '../../pdfa/shared/numbering.js';

const at = clauseTests(['ISO 14289-1'], '7.9');

function noIdFault(node: StructElementNode): string | undefined {
  if (node.element.standardType !== 'Note') return undefined;
  if (node.id === undefined) return 'it has no /ID';
  return node.id === '' ? 'its /ID is empty' : undefined;
}

/** A Note whose /ID an earlier Note already has (the first of them keeps the rule). */
function duplicateIdFault(node: StructElementNode): string | undefined {
  if (node.element.standardType !== 'Note' || !node.noteIdUsedBefore) return undefined;
  return `an earlier Note has the same /ID "${node.id!.slice(0, 100)}"`;
}

/** ISO 14289-1, 7.9 Notes and references. */
export const rules: Rule[] = [
  rule({
    ...at(1),
    object: 'struct_element',
    check: 'note_ids',
    says: 'A Note element has an /ID entry',
    fault: noIdFault,
    fix: 'give every Note element an /ID (a string of its own, such as "note-1"), so that references can point to it',
  }),
  rule({
    ...at(2),
    object: 'struct_element',
    check: 'note_ids',
    says: "Each Note element's /ID is unique",
    fault: duplicateIdFault,
    fix: 'give each Note an /ID no other Note has',
  }),
];

export const reasons: Reason[] = [];
