import type { CosFile } from '../../cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from '../../cos/syntax.js';
import { numberTreeEntries } from '../interactive/trees.js';

/** The standard structure types of ISO 32000-1, 14.8.4. */
export const STANDARD_STRUCTURE_TYPES: ReadonlySet<string> = new Set([
  ...['Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index'],
  ...['NonStruct', 'Private', 'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody'],
  ...['Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot', 'Span', 'Quote', 'Note', 'Reference'],
  ...['BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP', 'Figure'],
  ...['Formula', 'Form'],
]);

/** Elements read at most: a tree larger than this is judged on its first elements (`StructTree.truncated`). */
export const MAX_STRUCT_ELEMENTS = 200_000;
/** Role map hops followed at most; a longer chain is taken as circular. */
const MAX_ROLE_HOPS = 32;

/** What an element holds directly besides elements: marked content of a page, or a whole object. */
export type ContentItem =
  | { kind: 'marked-content'; page: number | undefined; mcid: number; stream: number | undefined }
  | { kind: 'object'; page: number | undefined; object: number | undefined };

/** One structure element of the tree, as written and as its role map makes it. */
export interface StructElement {
  /** Position in document order (a depth-first walk from the root), from 0. */
  index: number;
  /** Its object number, or undefined for an element written directly inside its parent. */
  objectNumber: number | undefined;
  dict: PdfDict;
  /** /S as written; undefined when it is not a name. */
  type: string | undefined;
  /**
   * The standard type it stands for: /S itself when standard, else where the role map leads (ISO 32000-1
   * 14.8.4); undefined when the chain ends on a type that is not standard, or loops.
   */
  standardType: string | undefined;
  /** The role map's chain from /S comes back to a type it has passed. */
  circularMapping: boolean;
  /** The element that holds it; undefined for the root's kids. */
  parent: StructElement | undefined;
  /** Its child elements, in order. */
  kids: StructElement[];
  /** The marked content and objects it holds directly, in order. */
  content: ContentItem[];
  /** Its own /Lang, as written (a text string); undefined when absent. */
  lang: string | undefined;
  /** /P is there and is a dictionary. */
  hasParentEntry: boolean;
  /** The page its content is on by default: its /Pg or the nearest ancestor's, as an object number. */
  page: number | undefined;
  /** Its depth: 1 for the root's kids. */
  depth: number;
}

export interface StructTree {
  /** The catalog's /StructTreeRoot, when it is a dictionary. */
  root: PdfDict | undefined;
  /** The root's /RoleMap, as names to names (entries whose value is not a name are left out). */
  roleMap: ReadonlyMap<string, string>;
  /** Every element, in document order. */
  elements: readonly StructElement[];
  /** The walk stopped at MAX_STRUCT_ELEMENTS. */
  truncated: boolean;
  /** The element holding marked content `mcid` on the page of object number `page`. */
  holderOfMarkedContent(page: number, mcid: number): StructElement | undefined;
  /** The element holding object `objectNumber` through an object reference (an annotation, a form). */
  holderOfObject(objectNumber: number): StructElement | undefined;
  /** The element that is object `objectNumber` itself, when the walk read it. */
  elementAt(objectNumber: number): StructElement | undefined;
}

const trees = new WeakMap<CosFile, StructTree>();

/**
 * The file's structure tree, read once per file (a run's document task and each of its page tasks read the
 * same `CosFile`): every element with its standard type through the role map, its parent and kids, and the
 * content it holds.
 */
export function structureTree(cos: CosFile): StructTree {
  let tree = trees.get(cos);
  if (!tree) {
    tree = readTree(cos);
    trees.set(cos, tree);
  }
  return tree;
}

/** Where `type` leads through `roleMap`: the standard type, or undefined (and whether the chain loops). */
export function mapRole(
  type: string | undefined,
  roleMap: ReadonlyMap<string, string>,
): { standardType: string | undefined; circular: boolean } {
  const passed = new Set<string>();
  let current = type;
  for (let hops = 0; current !== undefined; hops++) {
    if (STANDARD_STRUCTURE_TYPES.has(current)) return { standardType: current, circular: false };
    if (passed.has(current) || hops >= MAX_ROLE_HOPS) return { standardType: undefined, circular: true };
    passed.add(current);
    current = roleMap.get(current);
  }
  return { standardType: undefined, circular: false };
}

function readRoleMap(cos: CosFile, root: PdfDict | undefined): Map<string, string> {
  const map = new Map<string, string>();
  const roleMap = cos.dict(root, 'RoleMap');
  for (const key of roleMap?.keys() ?? []) {
    const value = nameOf(cos.get(roleMap, key));
    if (value !== undefined) map.set(key, value);
  }
  return map;
}

const refNumber = (value: PdfValue | undefined): number | undefined =>
  value instanceof PdfRef ? value.num : undefined;

function readTree(cos: CosFile): StructTree {
  const root = cos.dict(cos.catalog, 'StructTreeRoot');
  const roleMap = readRoleMap(cos, root);
  const elements: StructElement[] = [];
  const byMarkedContent = new Map<number, Map<number, StructElement>>();
  const byObject = new Map<number, StructElement>();
  const byNumber = new Map<number, StructElement>();
  const seen = new Set<number>();
  let truncated = false;

  const hold = (element: StructElement, item: ContentItem) => {
    element.content.push(item);
    if (item.kind === 'marked-content' && item.page !== undefined) {
      let onPage = byMarkedContent.get(item.page);
      if (!onPage) byMarkedContent.set(item.page, (onPage = new Map()));
      if (!onPage.has(item.mcid)) onPage.set(item.mcid, element);
    } else if (item.kind === 'object' && item.object !== undefined && !byObject.has(item.object))
      byObject.set(item.object, element);
  };

  // depth first, in order: each entry a kid (or array of kids) with the element that holds it
  const stack: { raw: PdfValue; parent: StructElement | undefined; page: number | undefined }[] = [];
  const pushKids = (
    kids: PdfValue | undefined,
    parent: StructElement | undefined,
    page: number | undefined,
  ) => {
    if (kids === undefined) return;
    const resolved = kids instanceof PdfRef ? cos.resolve(kids) : kids;
    if (Array.isArray(resolved))
      for (let i = resolved.length - 1; i >= 0; i--) stack.push({ raw: resolved[i]!, parent, page });
    else stack.push({ raw: kids, parent, page });
  };
  pushKids(root?.get('K'), undefined, undefined);

  while (stack.length > 0) {
    const { raw, parent, page } = stack.pop()!;
    const objectNumber = refNumber(raw);
    if (objectNumber !== undefined) {
      if (seen.has(objectNumber)) continue;
      seen.add(objectNumber);
    }
    const node = cos.resolve(raw);
    if (typeof node === 'number') {
      if (parent && Number.isInteger(node))
        hold(parent, { kind: 'marked-content', page, mcid: node, stream: undefined });
      continue;
    }
    if (!isDict(node)) continue;
    const declared = nameOf(cos.get(node, 'Type'));
    if (declared === 'MCR' || declared === 'OBJR') {
      if (!parent) continue;
      const itemPage = refNumber(node.get('Pg')) ?? page;
      if (declared === 'MCR') {
        const mcid = cos.get(node, 'MCID');
        if (typeof mcid === 'number')
          hold(parent, {
            kind: 'marked-content',
            page: itemPage,
            mcid,
            stream: refNumber(node.get('Stm')),
          });
      } else hold(parent, { kind: 'object', page: itemPage, object: refNumber(node.get('Obj')) });
      continue;
    }
    // a structure element's /Type, when written, is /StructElem (ISO 32000-1 Table 323): another dictionary
    // among the kids is no element
    if (declared !== undefined && declared !== 'StructElem') continue;
    if (elements.length >= MAX_STRUCT_ELEMENTS) {
      truncated = true;
      break;
    }
    const type = nameOf(cos.get(node, 'S'));
    const { standardType, circular } = mapRole(type, roleMap);
    const element: StructElement = {
      index: elements.length,
      objectNumber,
      dict: node,
      type,
      standardType,
      circularMapping: circular,
      parent,
      kids: [],
      content: [],
      lang: textString(cos.get(node, 'Lang')),
      hasParentEntry: isDict(cos.get(node, 'P')),
      page: refNumber(node.get('Pg')) ?? page,
      depth: (parent?.depth ?? 0) + 1,
    };
    elements.push(element);
    if (objectNumber !== undefined) byNumber.set(objectNumber, element);
    parent?.kids.push(element);
    pushKids(node.get('K'), element, element.page);
  }

  return {
    root,
    roleMap,
    elements,
    truncated,
    holderOfMarkedContent: (pageObject, mcid) => byMarkedContent.get(pageObject)?.get(mcid),
    holderOfObject: (object) => byObject.get(object),
    elementAt: (objectNumber) => byNumber.get(objectNumber),
  };
}

const parentTrees = new WeakMap<CosFile, ReadonlyMap<number, PdfValue>>();

/**
 * The root's /ParentTree as one map, read once per file (ISO 32000-1 14.7.4.4): the content's way up to the
 * element that holds it, by /StructParents and /StructParent key. A lookup is then one get, where walking a
 * number tree whose /Nums is one long array would read it whole each time.
 */
export function parentTree(cos: CosFile): ReadonlyMap<number, PdfValue> {
  let entries = parentTrees.get(cos);
  if (!entries) {
    entries = numberTreeEntries(cos, cos.dict(structureTree(cos).root, 'ParentTree'));
    parentTrees.set(cos, entries);
  }
  return entries;
}

/**
 * The value of attribute `key` of owner `owner` (`Layout`, `Table`, `List`, ...) on an element's dictionary:
 * from its /A (a dictionary or an array of them, with revision numbers between) or the classes its /C names
 * in the `root`'s /ClassMap; its own /A comes first (ISO 32000-1 14.7.5).
 */
export function structAttribute(
  cos: CosFile,
  root: PdfDict | undefined,
  element: PdfDict,
  owner: string,
  key: string,
): PdfValue | undefined {
  const sets: PdfValue[] = [];
  const own = cos.resolve(element.get('A'));
  if (Array.isArray(own)) sets.push(...own);
  else if (own !== undefined) sets.push(own);
  const classMap = cos.dict(root, 'ClassMap');
  const classes = cos.resolve(element.get('C'));
  for (const name of Array.isArray(classes) ? classes : [classes]) {
    const className = nameOf(cos.resolve(name));
    const defined = className === undefined ? undefined : cos.resolve(cos.get(classMap, className));
    if (Array.isArray(defined)) sets.push(...defined);
    else if (defined !== undefined) sets.push(defined);
  }
  for (const raw of sets) {
    const set = cos.resolve(raw);
    if (isDict(set) && nameOf(cos.get(set, 'O')) === owner && set.has(key)) return cos.get(set, key);
  }
  return undefined;
}

/** How an element is named to a person: its type and object, as "structure element Table (object 12)". */
export function elementWhere(element: StructElement): string {
  const type = element.type ?? '(no /S)';
  const mapped =
    element.standardType && element.standardType !== type ? ` mapped to ${element.standardType}` : '';
  return `structure element ${type}${mapped}${element.objectNumber !== undefined ? ` (object ${element.objectNumber})` : ` (the ${element.index + 1}th in the tree)`}`;
}
