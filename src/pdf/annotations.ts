import type { Schemas } from '../contract/schemas.js';
import type { CosFile } from './cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from './cos/syntax.js';

export type AnnotationFacts = Schemas['PageReport']['annotation_details'][number];

const MAX_ANNOTATIONS = 200;
const MAX_FIELD_NODES = 50_000;

const MAX_TREE_DEPTH = 32;

/** The value of `key` in a number tree (ISO 32000-1, 7.9.7), by its /Limits; undefined when absent. */
function numberTreeValue(cos: CosFile, tree: PdfDict | undefined, key: number): PdfValue | undefined {
  let node = tree;
  for (let depth = 0; node && depth < MAX_TREE_DEPTH; depth++) {
    const nums = cos.array(node, 'Nums');
    for (let i = 0; i + 1 < nums.length; i += 2) if (cos.resolve(nums[i]) === key) return nums[i + 1];
    const kids: PdfValue[] = cos.array(node, 'Kids');
    node = kids
      .map((kid) => cos.resolve(kid))
      .find((kid): kid is PdfDict => {
        if (!isDict(kid)) return false;
        const [low, high] = cos.array(kid, 'Limits').map((limit) => cos.resolve(limit));
        return typeof low === 'number' && typeof high === 'number' && key >= low && key <= high;
      });
  }
  return undefined;
}

/** The structure element that holds an annotation (its `/StructParent` in the parent tree) has an `/Alt`. */
function structureAlt(cos: CosFile, annotation: PdfDict): boolean {
  const key = cos.get(annotation, 'StructParent');
  if (typeof key !== 'number') return false;
  const parentTree = cos.dict(cos.dict(cos.catalog, 'StructTreeRoot'), 'ParentTree');
  const element = cos.resolve(numberTreeValue(cos, parentTree, key));
  if (!isDict(element)) return false;
  const alt = textString(cos.get(element, 'Alt'));
  return alt !== undefined && (cos.ciphertext || alt.trim() !== '');
}

/** A page's crop box as written or inherited, else its media box: [x0, y0, x1, y1], normalized. */
function cropOf(cos: CosFile, page: PdfDict): number[] | undefined {
  for (const key of ['CropBox', 'MediaBox']) {
    let node: PdfDict | undefined = page;
    for (let depth = 0; node && depth < MAX_TREE_DEPTH; depth++, node = cos.dict(node, 'Parent')) {
      if (!node.has(key)) continue;
      const box = cos.array(node, key).map((v) => cos.resolve(v));
      if (box.length !== 4 || !box.every((v): v is number => typeof v === 'number')) break;
      return [
        Math.min(box[0]!, box[2]!),
        Math.min(box[1]!, box[3]!),
        Math.max(box[0]!, box[2]!),
        Math.max(box[1]!, box[3]!),
      ];
    }
  }
  return undefined;
}

/** A rectangle `[x0, y0, x1, y1]` that shares no area with the normalized `box`. */
function outside(rect: number[], box: number[]): boolean {
  const [x0, y0, x1, y1] = rect as [number, number, number, number];
  const [left, bottom, right, top] = box as [number, number, number, number];
  return (
    Math.max(x0, x1) <= left ||
    Math.min(x0, x1) >= right ||
    Math.max(y0, y1) <= bottom ||
    Math.min(y0, y1) >= top
  );
}

/** The page's annotation dictionaries as PDF/A (6.3) and PDF/UA (7.18) judge them, at most 200. */
export function pageAnnotations(cos: CosFile, page: PdfDict): AnnotationFacts[] {
  const found: AnnotationFacts[] = [];
  const crop = cropOf(cos, page);
  for (const raw of cos.array(page, 'Annots')) {
    if (found.length >= MAX_ANNOTATIONS) break;
    const annotation = cos.resolve(raw);
    if (!isDict(annotation)) continue;
    const flags = cos.get(annotation, 'F');
    const appearance = cos.dict(annotation, 'AP');
    const rect = cos.resolve(annotation.get('Rect'));
    const corners = Array.isArray(rect) ? rect.map((v) => cos.resolve(v)) : [];
    const [x0, y0, x1, y1] = corners.map((v) => (typeof v === 'number' ? v : 0));
    const contents = textString(cos.get(annotation, 'Contents'));
    found.push({
      subtype: nameOf(cos.get(annotation, 'Subtype')) ?? 'unknown',
      flags: typeof flags === 'number' ? flags : null,
      appearance: appearance ? [...appearance.keys()].sort() : [],
      // an encrypted file's strings, when it could not be decrypted, are unreadable: present is all that can be told
      contents: contents !== undefined && (cos.ciphertext || contents.trim() !== ''),
      tagged: annotation.has('StructParent'),
      zero_size: corners.length === 4 && (x0 === x1 || y0 === y1),
      alt: structureAlt(cos, annotation),
      outside_crop: crop !== undefined && corners.length === 4 && outside([x0!, y0!, x1!, y1!], crop),
    });
  }
  return found;
}

/** The interactive form's terminal fields (those that hold a value), and those without a `/TU` description. */
export function formFieldFacts(cos: CosFile): {
  form_fields: number;
  form_fields_without_description: number;
} {
  let fields = 0;
  let withoutDescription = 0;
  const seen = new Set<number>();
  const stack: PdfValue[] = [...cos.array(cos.dict(cos.catalog, 'AcroForm'), 'Fields')];
  let visited = 0;
  while (stack.length > 0 && visited++ < MAX_FIELD_NODES) {
    const raw = stack.pop()!;
    if (raw instanceof PdfRef) {
      if (seen.has(raw.num)) continue;
      seen.add(raw.num);
    }
    const field = cos.resolve(raw);
    if (!isDict(field)) continue;
    // kids with a /T are fields of their own; kids without are this field's widgets
    const kids = cos.array(field, 'Kids').filter((kid) => {
      const dict = cos.resolve(kid);
      return isDict(dict) && dict.has('T');
    });
    if (kids.length > 0) {
      stack.push(...kids);
      continue;
    }
    fields++;
    const description = textString(cos.get(field, 'TU'));
    if (description === undefined || (!cos.ciphertext && description.trim() === '')) withoutDescription++;
  }
  return { form_fields: fields, form_fields_without_description: withoutDescription };
}
