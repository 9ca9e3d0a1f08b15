import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue } from '../../cos/syntax.js';
import { pageEntries } from '../pages.js';
import { parentTree, type StructElement, type StructTree } from '../structure/tree.js';

/**
 * Which structure element holds a piece of content, found both ways ISO 32000-1 14.7.4 gives: from the
 * element down (its /K, as `structureTree` reads it) and from the content up (the /StructParents or
 * /StructParent key of the page, form or annotation, through the root's /ParentTree). Either way is taken:
 * a file whose two ways disagree is judged by the one that holds the content.
 */

/**
 * What the parent tree maps `key` to, as the tree's element: for a /StructParent key, the element holding
 * the whole object. An element the tree's kids do not reach but whose /P chain leads to the root is in the
 * structure all the same (ISO 32000-1 14.7.2 links both ways) and is taken as held (`true`), as is a value
 * written in place (no object number to tell it by) and an element past what the tree read
 * (`StructTree.truncated`).
 */
function treeElement(
  cos: CosFile,
  tree: StructTree,
  raw: PdfValue | undefined,
): StructElement | true | undefined {
  if (raw instanceof PdfRef) {
    const element = tree.elementAt(raw.num);
    if (element) return element;
    return tree.truncated || leadsToRoot(cos, tree, raw) ? true : undefined;
  }
  return isDict(raw) ? true : undefined;
}

const MAX_PARENT_HOPS = 256;

/** The /P chain from `raw` reaches the structure tree root. */
function leadsToRoot(cos: CosFile, tree: StructTree, raw: PdfValue): boolean {
  let node = cos.resolve(raw);
  for (let hops = 0; isDict(node) && hops < MAX_PARENT_HOPS; hops++) {
    if (node === tree.root || nameOf(node.get('Type')) === 'StructTreeRoot') return true;
    node = cos.get(node, 'P');
  }
  return false;
}

/** The element the parent tree gives for an object's /StructParent key. */
export function structParentHolder(
  cos: CosFile,
  tree: StructTree,
  key: PdfValue | undefined,
): StructElement | true | undefined {
  const number = cos.resolve(key);
  if (typeof number !== 'number' || !tree.root) return undefined;
  return treeElement(cos, tree, parentTree(cos).get(number));
}

/**
 * The holders of the marked content of one stream (a page's or a form's), by MCID: the parent tree's array
 * for the stream's /StructParents, read once, and the tree's own index by page.
 */
export class MarkedContentHolders {
  private readonly array: PdfValue[] | undefined;

  constructor(
    private readonly cos: CosFile,
    private readonly tree: StructTree,
    /** The page the content is drawn on, as an object number. */
    private readonly pageObject: number | undefined,
    /** The page's or form's dictionary. */
    owner: PdfDict | undefined,
  ) {
    const key = cos.get(owner, 'StructParents');
    const value = typeof key === 'number' && tree.root ? cos.resolve(parentTree(cos).get(key)) : undefined;
    this.array = Array.isArray(value) ? value : undefined;
  }

  /** The element holding marked content `mcid` of the stream, `true` when held by an unnamed one. */
  holder(mcid: number): StructElement | true | undefined {
    const raw = this.array?.[mcid];
    const fromParentTree = raw === undefined ? undefined : treeElement(this.cos, this.tree, raw);
    if (fromParentTree !== undefined && fromParentTree !== true) return fromParentTree;
    const fromTree =
      this.pageObject === undefined ? undefined : this.tree.holderOfMarkedContent(this.pageObject, mcid);
    // a tree read only in part may hold it among the elements not read
    return fromTree ?? fromParentTree ?? (this.tree.truncated ? true : undefined);
  }
}

const pageNumbers = new WeakMap<CosFile, Map<PdfDict, number | undefined>>();

/** The object number of a page dictionary, from the page tree read once per file. */
export function pageObjectNumber(cos: CosFile, page: PdfDict): number | undefined {
  let map = pageNumbers.get(cos);
  if (!map) {
    map = new Map();
    for (const entry of pageEntries(cos)) map.set(entry.dict, entry.num);
    pageNumbers.set(cos, map);
  }
  return map.get(page);
}
