import type { Schemas } from '../contract.js';
import type { CosFile } from './cos/file.js';
import { isDict, nameOf, type PdfDict, PdfRef, type PdfValue, textString } from './cos/syntax.js';

export type AnnotationFacts = Schemas['PageReport']['annotation_details'][number];

const MAX_ANNOTATIONS = 200;
const MAX_FIELD_NODES = 50_000;

/** The page's annotation dictionaries as PDF/A (6.3) and PDF/UA (7.18) judge them, at most 200. */
export function pageAnnotations(cos: CosFile, page: PdfDict): AnnotationFacts[] {
  const found: AnnotationFacts[] = [];
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
      // an encrypted file's strings are unreadable here: present is all that can be told
      contents: contents !== undefined && (cos.encrypted || contents.trim() !== ''),
      tagged: annotation.has('StructParent'),
      zero_size: corners.length === 4 && (x0 === x1 || y0 === y1),
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
    if (description === undefined || (!cos.encrypted && description.trim() === '')) withoutDescription++;
  }
  return { form_fields: fields, form_fields_without_description: withoutDescription };
}
