import type { Builders, ModelNode } from '../kinds.js';
import { elementWhere, type StructElement, structureTree } from './tree.js';

/** A Table element, with what its rows and cells make of it. */
export interface TableNode extends ModelNode {
  element: StructElement;
}

/** Tables of the structure tree and their parts (ISO 32000-1 14.8.4.3.4). */
export interface TableKinds {
  table: TableNode;
}

export const tableBuilders: Builders = {
  document: ({ cos }, out) => {
    if (!out.wants('table')) return;
    for (const element of structureTree(cos).elements)
      if (element.standardType === 'Table') out.emit('table', { where: elementWhere(element), element });
  },
};
