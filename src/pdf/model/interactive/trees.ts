import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, PdfRef, type PdfValue } from '../../cos/syntax.js';

const MAX_TREE_DEPTH = 32;
const MAX_TREE_VALUES = 10_000;
const MAX_OBJECTS_SCANNED = 500_000;
/** How deep in an object a file specification or an AF array is looked for (a page's resources' properties). */
const MAX_AF_NESTING = 4;

/** The values of a name tree (ISO 32000-1, 7.9.6), in order, each node read once; at most MAX_TREE_VALUES. */
export function nameTreeValues(cos: CosFile, root: PdfDict | undefined): PdfValue[] {
  const out: PdfValue[] = [];
  const seen = new Set<number>();
  const visit = (raw: PdfValue | undefined, depth: number): void => {
    if (depth > MAX_TREE_DEPTH || out.length >= MAX_TREE_VALUES) return;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) return;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (!isDict(node)) return;
    const names = cos.array(node, 'Names');
    for (let i = 1; i < names.length && out.length < MAX_TREE_VALUES; i += 2) out.push(names[i]!);
    for (const kid of cos.array(node, 'Kids')) visit(kid, depth + 1);
  };
  visit(root, 0);
  return out;
}

/** The most entries of a number tree read. */
const MAX_NUMBER_TREE_ENTRIES = 1_000_000;

/** The entries of a number tree (ISO 32000-1, 7.9.7) by key, each node read once; at most a million. */
export function numberTreeEntries(cos: CosFile, tree: PdfDict | undefined): Map<number, PdfValue> {
  const entries = new Map<number, PdfValue>();
  const seen = new Set<number>();
  const visit = (raw: PdfValue | undefined, depth: number): void => {
    if (depth > MAX_TREE_DEPTH || entries.size >= MAX_NUMBER_TREE_ENTRIES) return;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) return;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (!isDict(node)) return;
    const nums = cos.array(node, 'Nums');
    for (let i = 0; i + 1 < nums.length && entries.size < MAX_NUMBER_TREE_ENTRIES; i += 2) {
      const key = cos.resolve(nums[i]);
      if (typeof key === 'number' && !entries.has(key)) entries.set(key, nums[i + 1]!);
    }
    for (const kid of cos.array(node, 'Kids')) visit(kid, depth + 1);
  };
  visit(tree, 0);
  return entries;
}

/** The dictionaries of a tree through `Kids` (a field tree, a page tree), each once; at most `limit`. */
export function treeNodes(cos: CosFile, roots: PdfValue[], limit: number): PdfDict[] {
  const out: PdfDict[] = [];
  const seen = new Set<number>();
  const stack = [...roots].reverse();
  while (stack.length > 0 && out.length < limit) {
    const raw = stack.pop()!;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) continue;
      seen.add(raw.num);
    }
    const node = cos.resolve(raw);
    if (!isDict(node)) continue;
    out.push(node);
    stack.push(...[...cos.array(node, 'Kids')].reverse());
  }
  return out;
}

/** What one reading of every indirect object finds of embedded and associated files. */
export interface FileObjects {
  /** The file specifications AF arrays name: by object number, and the direct ones by identity. */
  associatedNumbers: Set<number>;
  associatedDicts: Set<PdfDict>;
  /** Dictionaries of `/Type /Filespec` or with an /EF, wherever they are (an indirect one with its reference). */
  fileSpecifications: { raw: PdfValue; dict: PdfDict }[];
}

const scans = new WeakMap<CosFile, FileObjects>();

/**
 * Every file specification of the file, and every one an `AF` array names (ISO 32000-2, 14.13: the catalog,
 * pages, annotations, XObjects, structure elements, marked-content property lists), from one reading of every
 * indirect object and the direct dictionaries inside it; kept for the file.
 */
export function fileObjects(cos: CosFile): FileObjects {
  const known = scans.get(cos);
  if (known) return known;
  const found: FileObjects = {
    associatedNumbers: new Set(),
    associatedDicts: new Set(),
    fileSpecifications: [],
  };
  const note = (af: PdfValue | undefined) => {
    const list = cos.resolve(af);
    for (const entry of Array.isArray(list) ? list : [list]) {
      if (entry instanceof PdfRef) found.associatedNumbers.add(entry.num);
      else if (isDict(entry)) found.associatedDicts.add(entry);
    }
  };
  // only dictionaries and arrays can hold a dictionary; references are objects of their own, read in turn
  const container = (item: PdfValue) =>
    typeof item === 'object' && item !== null && !(item instanceof PdfRef) && !(item instanceof Uint8Array);
  const search = (value: PdfValue, raw: PdfValue, depth: number): void => {
    if (depth > MAX_AF_NESTING) return;
    if (Array.isArray(value)) {
      for (const item of value) if (container(item)) search(item, item, depth + 1);
      return;
    }
    const dict = isStream(value) ? value.stream.dict : value;
    if (!isDict(dict)) return;
    if (dict.has('AF')) note(dict.get('AF'));
    if (dict.has('EF') || nameOf(dict.get('Type')) === 'Filespec')
      found.fileSpecifications.push({ raw, dict });
    for (const [key, item] of dict) if (key !== 'AF' && container(item)) search(item, item, depth + 1);
  };
  let scanned = 0;
  for (const [num] of cos.listed()) {
    if (scanned++ >= MAX_OBJECTS_SCANNED) break;
    const value = cos.object(num);
    if (value !== undefined && container(value)) search(value, new PdfRef(num, 0), 0);
  }
  scans.set(cos, found);
  return found;
}
