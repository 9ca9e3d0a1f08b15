import { textString } from '../cos/syntax.js';
import type { Builders, ModelNode } from './node.js';
import { elementWhere, type StructElement, type StructTree, structureTree } from './structure/tree.js';

/** The structure tree's root, once per file (its absence too). */
export interface StructTreeRootNode extends ModelNode {
  /** The catalog has a /StructTreeRoot dictionary. */
  present: boolean;
  tree: StructTree;
}

/** How many headings of each kind the whole tree holds (read once per file, shared by every element's node). */
export interface HeadingCounts {
  /** Elements of standard type H (the headings of a strongly structured document, ISO 32000-1 14.8.4.3.5). */
  unnumbered: number;
  /** Elements of standard types H1 to H6. */
  numbered: number;
}

/** The standard type the parent entry names when an element's nearest significant ancestor is the root. */
export const TREE_ROOT = 'StructTreeRoot';

/**
 * Grouping elements that carry no structure of their own, looked through when an element's parent or kids are
 * asked for: NonStruct by definition (ISO 32000-1 14.8.4.2, "processed as if it were not there"), and the
 * generic groupings Part and Div.
 */
export const GROUPING_TYPES: ReadonlySet<string> = new Set(['NonStruct', 'Div', 'Part']);

/** Kid types listed at most per element (a list or a contents with more items is judged on its first ones). */
const MAX_KID_TYPES = 10_000;
/** Ancestors climbed at most through grouping elements. */
const MAX_GROUPING_HOPS = 256;

/** One structure element, with the tree around it. */
export interface StructElementNode extends ModelNode {
  element: StructElement;
  tree: StructTree;
  /** /Alt as a text string; undefined when absent or not a string. */
  alt: string | undefined;
  /** /ActualText as a text string (it may be empty); undefined when absent or not a string. */
  actualText: string | undefined;
  /** /ID as a text string; undefined when absent or not a string. */
  id: string | undefined;
  /**
   * Where the role map sends /S when /S is itself a standard type and the map has a different value for it;
   * undefined otherwise.
   */
  standardTypeRemappedTo: string | undefined;
  /**
   * The standard type of the nearest ancestor that is not a grouping element (GROUPING_TYPES); TREE_ROOT when
   * there is none; undefined when that ancestor's type maps to no standard type.
   */
  readonly parentStandardType: string | undefined;
  /**
   * The standard types of its kid elements in order, a grouping kid replaced by its own kids (recursively);
   * kids whose type maps to no standard type are left out.
   */
  readonly kidStandardTypes: readonly string[];
  /** For an element of type H1 to H6: the level of the numbered heading before it in document order, 0 if none. */
  numberedHeadingLevelBefore: number;
  headings: HeadingCounts;
  /** For a Note: an earlier Note of the tree has the same /ID. */
  noteIdUsedBefore: boolean;
}

/** Structure elements and the tree they form (ISO 32000-1 14.7, 14.8). */
export interface StructureKinds {
  struct_tree_root: StructTreeRootNode;
  struct_element: StructElementNode;
}

const numberedLevel = (type: string | undefined): number | undefined =>
  type !== undefined && /^H[1-6]$/.test(type) ? Number(type.slice(1)) : undefined;

function countHeadings(tree: StructTree): HeadingCounts {
  const counts: HeadingCounts = { unnumbered: 0, numbered: 0 };
  for (const element of tree.elements)
    if (element.standardType === 'H') counts.unnumbered++;
    else if (numberedLevel(element.standardType) !== undefined) counts.numbered++;
  return counts;
}

function parentStandardType(element: StructElement): string | undefined {
  let parent = element.parent;
  for (let hops = 0; parent && hops < MAX_GROUPING_HOPS; hops++) {
    if (parent.standardType === undefined || !GROUPING_TYPES.has(parent.standardType))
      return parent.standardType;
    parent = parent.parent;
  }
  return parent ? undefined : TREE_ROOT;
}

function kidStandardTypes(element: StructElement): string[] {
  const types: string[] = [];
  // depth first through grouping kids, in order
  const stack: StructElement[] = [...element.kids].reverse();
  while (stack.length > 0 && types.length < MAX_KID_TYPES) {
    const kid = stack.pop()!;
    const type = kid.standardType;
    if (type === undefined) continue;
    if (GROUPING_TYPES.has(type)) for (let i = kid.kids.length - 1; i >= 0; i--) stack.push(kid.kids[i]!);
    else types.push(type);
  }
  return types;
}

function remappedTo(element: StructElement, tree: StructTree): string | undefined {
  if (element.type === undefined || element.standardType !== element.type) return undefined;
  const mapped = tree.roleMap.get(element.type);
  return mapped !== undefined && mapped !== element.type ? mapped : undefined;
}

export const structureBuilders: Builders<StructureKinds> = {
  document: ({ cos }, out) => {
    if (!out.wants('struct_tree_root') && !out.wants('struct_element')) return;
    const tree = structureTree(cos);
    out.emit('struct_tree_root', {
      where: 'the structure tree root',
      present: tree.root !== undefined,
      tree,
    });
    if (!out.wants('struct_element')) return;
    const headings = countHeadings(tree);
    const noteIds = new Set<string>();
    let lastLevel = 0;
    for (const element of tree.elements) {
      const text = (key: string) => textString(cos.get(element.dict, key));
      const id = text('ID');
      let noteIdUsedBefore = false;
      if (element.standardType === 'Note' && id !== undefined) {
        noteIdUsedBefore = noteIds.has(id);
        noteIds.add(id);
      }
      const numberedHeadingLevelBefore = lastLevel;
      lastLevel = numberedLevel(element.standardType) ?? lastLevel;
      let parentType: { value: string | undefined } | undefined;
      let kidTypes: string[] | undefined;
      out.emit('struct_element', {
        where: elementWhere(element),
        element,
        tree,
        alt: text('Alt'),
        actualText: text('ActualText'),
        id,
        standardTypeRemappedTo: remappedTo(element, tree),
        // read only by the rules that ask (lists, contents): the walks are not paid for every element
        get parentStandardType() {
          return (parentType ??= { value: parentStandardType(element) }).value;
        },
        get kidStandardTypes() {
          return (kidTypes ??= kidStandardTypes(element));
        },
        numberedHeadingLevelBefore,
        headings,
        noteIdUsedBefore,
      });
    }
  },
};
