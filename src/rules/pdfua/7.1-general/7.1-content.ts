import type { MarkedContentNode, PageContentNode } from '../../../pdf/model/tagged-content.js';
import { rule, type Reason, type Rule } from '../../rule.js';

const examples = (list: string[], count: number): string =>
  `${list.join('; ')}${count > list.length ? `; and ${count - list.length} more` : ''}`;

/** ISO 14289-1, 7.1 General: content tagged or artifact. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.1',
    test: 1,
    object: 'marked_content',
    check: 'tagged_artifacts',
    says: 'Content marked as an artifact is not inside tagged content (and is not itself held by a structure element)',
    fault: (node: MarkedContentNode) =>
      node.tag === 'Artifact' && node.tagged
        ? node.mcid !== undefined
          ? 'an Artifact sequence whose MCID a structure element holds, or that is inside tagged content'
          : 'an Artifact sequence inside tagged content'
        : undefined,
    fix: 'close the tagged sequence before the artifact begins (EMC), or tag the content as real content instead of Artifact',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.1',
    test: 2,
    object: 'marked_content',
    check: 'tagged_artifacts',
    says: 'Tagged content is not inside content marked as an artifact',
    fault: (node: MarkedContentNode) =>
      node.tagged && (node.withinArtifact || node.tag === 'Artifact')
        ? node.tag === 'Artifact'
          ? 'an Artifact sequence that belongs to the structure tree'
          : `tagged content (/${node.tag}) inside an Artifact sequence`
        : undefined,
    fix: 'end the Artifact sequence before the tagged content begins, or take the content out of the structure tree if it is an artifact',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.1',
    test: 3,
    object: 'page_content',
    check: 'untagged_content',
    says: 'All content of a page is either tagged (held by a structure element) or marked as an artifact',
    fault: (node: PageContentNode) =>
      node.untaggedItems === 0
        ? undefined
        : `${node.untaggedItems} content item${node.untaggedItems === 1 ? '' : 's'} neither tagged nor marked as artifact: ${examples(node.untaggedExamples, node.untaggedItems)}`,
    fix: 'enclose the content in marked content whose MCID a structure element holds (through the ParentTree), or in an /Artifact sequence if it is decoration, page furniture or layout',
  }),
];

export const reasons: Reason[] = [];
