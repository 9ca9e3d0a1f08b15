import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from '../../cos/syntax.js';
import { mapRole, parentTree, structureTree } from '../structure/tree.js';

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
    const value = cos.resolve(parentTree(cos).get(key));
    if (isDict(value) && value.has('S')) {
      parentDict = value;
      found.push(enclosing(cos, 'StructParent', value, tree.roleMap));
    }
  }
  const holder = raw instanceof PdfRef ? tree.holderOfObject(raw.num) : undefined;
  if (holder && holder.dict !== parentDict) found.push(enclosing(cos, 'OBJR', holder.dict, tree.roleMap));
  return found;
}
