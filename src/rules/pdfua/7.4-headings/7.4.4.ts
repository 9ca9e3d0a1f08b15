import type { StructElementNode } from '../../../pdf/model/structure.js';
import { rule, type Reason, type Rule } from '../../rule.js';
import { clauseTests } from '../../pdfa/shared/numbering.js';

const at = clauseTests(['ISO 14289-1'], '7.4.4');

const isNumbered = (type: string | undefined) => type !== undefined && /^H[1-6]$/.test(type);

/** An element holding more than one H element of its own (its direct kids: a section has one heading). */
function manyHeadingsFault({ element }: StructElementNode): string | undefined {
  const count = element.kids.filter((kid) => kid.standardType === 'H').length;
  return count > 1 ? `it holds ${count} H elements` : undefined;
}

function unnumberedAmongNumberedFault(node: StructElementNode): string | undefined {
  if (node.element.standardType !== 'H' || node.headings.numbered === 0) return undefined;
  return `an H in a document that also uses ${node.headings.numbered} numbered headings (H1 to H6)`;
}

function numberedAmongUnnumberedFault(node: StructElementNode): string | undefined {
  if (!isNumbered(node.element.standardType) || node.headings.unnumbered === 0) return undefined;
  return `an ${node.element.standardType} in a document that also uses ${node.headings.unnumbered} H elements`;
}

/** ISO 14289-1, 7.4.4 Unnumbered headings: strongly structured documents. */
export const rules: Rule[] = [
  rule({
    ...at(1),
    object: 'struct_element',
    check: 'unnumbered_headings',
    says: 'An element of the structure tree holds at most one H element',
    fault: manyHeadingsFault,
    fix: 'give each section (Sect, Part, Art...) one H of its own: put each further heading and what it heads in a section of its own',
  }),
  rule({
    ...at(2),
    object: 'struct_element',
    check: 'unnumbered_headings',
    says: 'A document with H elements (strongly structured) uses no numbered headings H1 to H6',
    fault: unnumberedAmongNumberedFault,
    fix: 'use one kind of heading in the whole document: either H in nested sections, or numbered headings H1 to H6',
  }),
  rule({
    ...at(3),
    object: 'struct_element',
    check: 'unnumbered_headings',
    says: 'A document with numbered headings H1 to H6 (weakly structured) uses no H elements',
    fault: numberedAmongUnnumberedFault,
    fix: 'use one kind of heading in the whole document: either numbered headings H1 to H6, or H in nested sections',
  }),
];

export const reasons: Reason[] = [];
