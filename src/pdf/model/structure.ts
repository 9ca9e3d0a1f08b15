import type { Builders, ModelNode } from './kinds.js';
import { elementWhere, type StructElement, type StructTree, structureTree } from './structure/tree.js';

/** The structure tree's root, once per file (its absence too). */
export interface StructTreeRootNode extends ModelNode {
  /** The catalog has a /StructTreeRoot dictionary. */
  present: boolean;
  tree: StructTree;
}

/** One structure element, with the tree around it. */
export interface StructElementNode extends ModelNode {
  element: StructElement;
  tree: StructTree;
}

/** Structure elements and the tree they form (ISO 32000-1 14.7, 14.8). */
export interface StructureKinds {
  struct_tree_root: StructTreeRootNode;
  struct_element: StructElementNode;
}

export const structureBuilders: Builders = {
  document: ({ cos }, out) => {
    if (!out.wants('struct_tree_root') && !out.wants('struct_element')) return;
    const tree = structureTree(cos);
    out.emit('struct_tree_root', {
      where: 'the structure tree root',
      present: tree.root !== undefined,
      tree,
    });
    if (out.wants('struct_element'))
      for (const element of tree.elements)
        out.emit('struct_element', { where: elementWhere(element), element, tree });
  },
};
