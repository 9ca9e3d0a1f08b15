import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from '../../cos/syntax.js';
import { mapRole, structureTree } from '../structure/tree.js';

const MAX_TREE_DEPTH = 32;
/** The most entries of a number tree read. */
const MAX_ENTRIES = 1_000_000;

/**
 * A text string as an alternate description reads it: written and not empty. In an encrypted file that
 * could not be decrypted, there being bytes is all that can be told.
 */
export function hasText(cos: CosFile, value: PdfValue | undefined): boolean {
  if (!(value instanceof Uint8Array)) return false;
  if (cos.ciphertext) return value.length > 0;
  const text = textString(value);
  return text !== undefined && text !== '';
}

/** The value of `key` in a number tree (ISO 32000-1, 7.9.7), following /Limits; undefined when absent. */
export function numberTreeValue(cos: CosFile, tree: PdfDict | undefined, key: number): PdfValue | undefined {
  let node = tree;
  for (let depth = 0; node && depth < MAX_TREE_DEPTH; depth++) {
    const nums = cos.array(node, 'Nums');
    for (let i = 0; i + 1 < nums.length && i < MAX_ENTRIES; i += 2)
      if (cos.resolve(nums[i]) === key) return nums[i + 1];
    node = cos
      .array(node, 'Kids')
      .map((kid) => cos.resolve(kid))
      .find((kid): kid is PdfDict => {
        if (!isDict(kid)) return false;
        const [low, high] = cos.array(kid, 'Limits').map((limit) => cos.resolve(limit));
        // a kid without readable limits may hold the key: look in it rather than miss it
        return typeof low !== 'number' || typeof high !== 'number' || (key >= low && key <= high);
      });
  }
  return undefined;
}

/** The entries of a number tree (ISO 32000-1, 7.9.7) by key, each node read once; at most MAX_ENTRIES. */
export function numberTreeEntries(cos: CosFile, tree: PdfDict | undefined): Map<number, PdfValue> {
  const entries = new Map<number, PdfValue>();
  const seen = new Set<number>();
  const visit = (raw: PdfValue | undefined, depth: number): void => {
    if (depth > MAX_TREE_DEPTH || entries.size >= MAX_ENTRIES) return;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) return;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (!isDict(node)) return;
    const nums = cos.array(node, 'Nums');
    for (let i = 0; i + 1 < nums.length && entries.size < MAX_ENTRIES; i += 2) {
      const key = cos.resolve(nums[i]);
      if (typeof key === 'number' && !entries.has(key)) entries.set(key, nums[i + 1]!);
    }
    for (const kid of cos.array(node, 'Kids')) visit(kid, depth + 1);
  };
  visit(tree, 0);
  return entries;
}

const parentTrees = new WeakMap<CosFile, Map<number, PdfValue>>();

/** The structure tree's parent tree, by key, read once per file. */
export function parentTree(cos: CosFile, root: PdfDict): Map<number, PdfValue> {
  let entries = parentTrees.get(cos);
  if (!entries) {
    entries = numberTreeEntries(cos, cos.dict(root, 'ParentTree'));
    parentTrees.set(cos, entries);
  }
  return entries;
}

/** A rectangle as [left, bottom, right, top], normalized; undefined unless four numbers. */
export function boxOf(cos: CosFile, value: PdfValue | undefined): number[] | undefined {
  const resolved = cos.resolve(value);
  if (!Array.isArray(resolved)) return undefined;
  const box = resolved.map((v) => cos.resolve(v));
  if (box.length !== 4 || !box.every((v): v is number => typeof v === 'number')) return undefined;
  return [
    Math.min(box[0]!, box[2]!),
    Math.min(box[1]!, box[3]!),
    Math.max(box[0]!, box[2]!),
    Math.max(box[1]!, box[3]!),
  ];
}

/**
 * The page's visible region: its crop box (as written or inherited) within its media box; the media box
 * alone without a crop box (ISO 32000-1 14.11.2). Undefined when neither is readable.
 */
export function visibleBox(cos: CosFile, page: PdfDict): number[] | undefined {
  const media = boxOf(cos, cos.inherited(page, 'MediaBox'));
  const crop = boxOf(cos, cos.inherited(page, 'CropBox'));
  if (!crop || !media) return crop ?? media;
  return [
    Math.max(crop[0]!, media[0]!),
    Math.max(crop[1]!, media[1]!),
    Math.min(crop[2]!, media[2]!),
    Math.min(crop[3]!, media[3]!),
  ];
}

/** Two normalized rectangles share no area (touching edges share none). */
export function disjoint(a: number[], b: number[]): boolean {
  return a[2]! <= b[0]! || a[0]! >= b[2]! || a[3]! <= b[1]! || a[1]! >= b[3]!;
}

/** A structure element that holds an annotation, as the annotation's rules read it. */
export interface EnclosingElement {
  /** How the element was found: the parent tree's entry for /StructParent, or an object reference (OBJR). */
  via: 'StructParent' | 'OBJR';
  /** /S as written; undefined when it is not a name. */
  type: string | undefined;
  /** The standard type /S stands for through the role map; undefined when none. */
  standardType: string | undefined;
  /** /Alt is a text string that is not empty. */
  hasAlt: boolean;
}

function enclosing(
  cos: CosFile,
  via: EnclosingElement['via'],
  element: PdfDict,
  roleMap: ReadonlyMap<string, string>,
): EnclosingElement {
  const type = nameOf(cos.get(element, 'S'));
  return {
    via,
    type,
    standardType: mapRole(type, roleMap).standardType,
    hasAlt: hasText(cos, cos.get(element, 'Alt')),
  };
}

/**
 * The structure elements that hold an annotation: the one the parent tree gives for its /StructParent, and
 * the one whose object reference (OBJR) names it, when it is another. Empty when the annotation is in no
 * element.
 */
export function enclosingElements(cos: CosFile, raw: PdfValue, annotation: PdfDict): EnclosingElement[] {
  const tree = structureTree(cos);
  if (!tree.root) return [];
  const found: EnclosingElement[] = [];
  const key = cos.get(annotation, 'StructParent');
  let parentDict: PdfDict | undefined;
  if (typeof key === 'number' && Number.isInteger(key)) {
    const value = cos.resolve(parentTree(cos, tree.root).get(key));
    if (isDict(value) && value.has('S')) {
      parentDict = value;
      found.push(enclosing(cos, 'StructParent', value, tree.roleMap));
    }
  }
  const holder = raw instanceof PdfRef ? tree.holderOfObject(raw.num) : undefined;
  if (holder && holder.dict !== parentDict) found.push(enclosing(cos, 'OBJR', holder.dict, tree.roleMap));
  return found;
}
