import { type Bytes, stream } from './pdfa-file.js';
import { type PdfuaEdits, pdfuaFile } from './pdfua-file.js';

/** One annotation of a fixture page, and how the structure tree holds it. */
export interface AnnotationSpec {
  /** The annotation dictionary's entries besides /Type, /Rect and /StructParent (`/Subtype /Text /Contents (A note)`). */
  entries: string;
  /** /Rect, default `[100 600 200 650]` (on the page). */
  rect?: string;
  /** The /S of the element that holds it; null leaves it out of the structure tree. */
  tag: string | null;
  /** Entries added to that element (`/Alt (A note)`, `/A << /O /PrintField /Role /rb >>`). */
  elementEntries?: string;
  /** How the element holds it: its /StructParent and an object reference (default), or one of them. */
  via?: 'both' | 'StructParent' | 'OBJR';
  /** The annotation is held by the element of an earlier annotation (by index), as a second object reference. */
  sharesElementOf?: number;
}

export interface AnnotatedEdits extends Omit<PdfuaEdits, 'objects' | 'document' | 'parentTree'> {
  /** Objects after the annotations and their elements; `annotatedRef(annotations, i)` names them. */
  objects?: Bytes[];
  /** The page's entries, instead of `/Annots [...] /Tabs /S` (the /Annots list is always written). */
  tabs?: string;
}

/** The first object after `count` annotations and their elements. */
export const annotatedRef = (count: number, index: number): string => `${10 + 2 * count + index} 0 R`;

/**
 * The default PDF/UA file with `annotations` on its page: annotation i is object 10 + 2i and the element
 * holding it (a kid of the Document) object 11 + 2i, with parent tree key i + 1. The page has /Tabs /S.
 */
export function annotatedFile(annotations: AnnotationSpec[], edits: AnnotatedEdits = {}): Uint8Array {
  const objects: Bytes[] = [];
  const tops: string[] = [];
  const nums: string[] = ['0 [8 0 R]'];
  const objrs = new Map<number, string[]>();
  annotations.forEach((a, i) => {
    const via = a.via ?? 'both';
    const holder = a.sharesElementOf ?? i;
    if (a.tag !== null && via !== 'StructParent')
      objrs.set(holder, [...(objrs.get(holder) ?? []), `<< /Type /OBJR /Obj ${10 + 2 * i} 0 R /Pg 3 0 R >>`]);
  });
  annotations.forEach((a, i) => {
    const element = 11 + 2 * (a.sharesElementOf ?? i);
    const key = i + 1;
    const tagged = a.tag !== null && (a.via ?? 'both') !== 'OBJR';
    const structParent = tagged ? ` /StructParent ${key}` : '';
    objects.push(
      `<< /Type /Annot ${a.entries} /Rect ${a.rect ?? '[100 600 200 650]'} /P 3 0 R${structParent} >>`,
    );
    if (tagged) nums.push(`${key} ${element} 0 R`);
    if (a.tag === null || a.sharesElementOf !== undefined) {
      objects.push('null');
      return;
    }
    const kids = objrs.get(i) ?? [];
    const k = kids.length === 0 ? '' : kids.length === 1 ? ` /K ${kids[0]}` : ` /K [${kids.join(' ')}]`;
    objects.push(
      `<< /Type /StructElem /S /${a.tag} /P 7 0 R /Pg 3 0 R${k}${a.elementEntries ? ` ${a.elementEntries}` : ''} >>`,
    );
    tops.push(`${element} 0 R`);
  });
  const annots = annotations.map((_, i) => `${10 + 2 * i} 0 R`).join(' ');
  const { tabs, objects: extra, page, root, ...rest } = edits;
  return pdfuaFile({
    ...rest,
    page: `/Annots [${annots}] ${tabs ?? '/Tabs /S'}${page ? ` ${page}` : ''}`,
    document: `<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R ${tops.join(' ')}] >>`,
    parentTree: `<< /Nums [${nums.join(' ')}] >>`,
    root:
      root ??
      `<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey ${annotations.length + 1} >>`,
    objects: [...objects, ...(extra ?? [])],
  });
}

/** A StructTreeRoot for `count` annotations, with more entries (`/RoleMap << /Note /Annot >>`). */
export const annotatedRoot = (count: number, entries: string): string =>
  `<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey ${count + 1} ${entries} >>`;

/** A text note, described by /Contents. */
export const NOTE = '/Subtype /Text /F 4 /Contents (A note on the square)';
/** A link to a web address, described by /Contents. */
export const LINK =
  '/Subtype /Link /Border [0 0 0] /A << /S /URI /URI (https://example.org/) >> /Contents (The example site)';
/** A text field and its widget in one dictionary, without /TU (`widget('/TU (Name)')` adds one). */
export const widget = (entries = ''): string => `/Subtype /Widget /F 4 /FT /Tx /T (name) ${entries}`.trim();

/** A form XObject stream: `entries` added to its dictionary. */
export const formXObject = (entries: string, data: Bytes): Uint8Array =>
  stream(`/Type /XObject /Subtype /Form /BBox [0 0 200 200] ${entries}`.trim(), data);
