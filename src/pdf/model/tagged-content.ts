import type { Builders, ModelNode } from './kinds.js';

/** A marked-content sequence of a page's content (BMC or BDC to EMC). */
export interface MarkedContentNode extends ModelNode {
  pageNumber: number;
  /** The tag: `Artifact`, `Span`, `P`, ... */
  tag: string;
}

/** A page's content as tagged or marked as artifacts (ISO 32000-1 14.6, 14.8.2.2). */
export interface TaggedContentKinds {
  marked_content: MarkedContentNode;
}

export const taggedContentBuilders: Builders = {};
