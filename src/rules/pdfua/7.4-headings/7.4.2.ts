import type { StructElementNode } from '../../../pdf/model/structure.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/**
 * A numbered heading (H1 to H6) more than one level below the numbered heading before it in document order,
 * or a first numbered heading that is not H1. Going back up any number of levels, repeating a level and
 * going one level down are all allowed.
 */
function skippedLevelFault(node: StructElementNode): string | undefined {
  const type = node.element.standardType;
  if (type === undefined || !/^H[1-6]$/.test(type)) return undefined;
  const level = Number(type.slice(1));
  const before = node.numberedHeadingLevelBefore;
  if (level <= before + 1) return undefined;
  return before === 0
    ? `the first numbered heading is ${type}, not H1`
    : `an ${type} follows an H${before}, skipping ${before + 1 === level - 1 ? `H${before + 1}` : `H${before + 1} to H${level - 1}`}`;
}

/** ISO 14289-1, 7.4.2 Headings: numbered headings of documents that are not strongly structured. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.4.2',
    test: 1,
    object: 'struct_element',
    check: 'heading_nesting',
    says: 'Numbered headings start at H1 and, going down, never skip a level',
    fault: skippedLevelFault,
    fix: 'number the headings as the document is outlined: the first H1, and each heading at most one level below the one before it (an H3 only after an H2 or deeper)',
  }),
];

export const reasons: Reason[] = [];
