import {
  AnnotationMode,
  OPS,
  type PDFDocumentProxy,
  type PDFPageProxy,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Schemas } from '../../contract.js';

/** What opening a file tells: enough to accept an upload. */
export interface ProbeFacts {
  pageCount: number | null;
  pdfVersion: string | null;
  encrypted: boolean;
}

type PreflightReport = Schemas['PreflightReport'];
export type DocumentFacts = PreflightReport['document'];
type PageReport = PreflightReport['pages'][number];
type FontFacts = PageReport['fonts'][number];
type ImageFacts = PageReport['images'][number];
/** A page that parsed: its report row without the status and error columns. */
export type PageFacts = Omit<
  PageReport,
  'page' | 'status' | 'error' | 'width_pt' | 'height_pt' | 'rotation'
> & {
  width_pt: number;
  height_pt: number;
  rotation: number;
};

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

export async function documentFacts(doc: PDFDocumentProxy): Promise<DocumentFacts> {
  const [meta, outline, js] = await Promise.all([doc.getMetadata(), doc.getOutline(), doc.getJSActions()]);
  const info = meta.info as Record<string, unknown>;
  return {
    pdf_version: text(info.PDFFormatVersion),
    page_count: doc.numPages,
    encrypted: Boolean(info.IsEncrypted),
    title: text(info.Title),
    author: text(info.Author),
    producer: text(info.Producer),
    form: info.IsXFAPresent ? 'XFA' : info.IsAcroFormPresent ? 'AcroForm' : 'none',
    javascript: Boolean(js && Object.keys(js).length > 0),
    outline: Array.isArray(outline) && outline.length > 0,
  };
}

type Matrix = [number, number, number, number, number, number];

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

/** Pixels per inch of an image drawn into the unit square under `ctm` (the lower of both axes). */
function effectiveDpi(widthPx: number, heightPx: number, ctm: Matrix): number | null {
  const widthPt = Math.hypot(ctm[0], ctm[1]);
  const heightPt = Math.hypot(ctm[2], ctm[3]);
  if (widthPt === 0 || heightPt === 0) return null;
  const dpi = Math.min(widthPx / (widthPt / 72), heightPx / (heightPt / 72));
  return Math.round(dpi * 10) / 10;
}

/** True when a text-showing operator draws at least one glyph that is not white space. */
function glyphsHaveText(args: unknown[]): boolean {
  const glyphs = args.find(Array.isArray) as unknown[] | undefined;
  return (glyphs ?? []).some((glyph) => {
    const unicode = (glyph as { unicode?: unknown } | null)?.unicode;
    return typeof unicode === 'string' && unicode.trim() !== '';
  });
}

interface FontObject {
  name?: string;
  loadedName?: string;
  type?: string;
  subtype?: string;
  missingFile?: boolean;
  isType3Font?: boolean;
}

interface Annotation {
  id: string;
  subtype?: string;
  fieldType?: string;
}

/**
 * The operators that draw the page as printed with its form fields filled in: a text field's font is only
 * used once the field has a value, and a font it lacks is a preflight problem all the same (pdffonts lists
 * it too).
 */
async function operatorsWithFilledFields(
  page: PDFPageProxy,
  annotations: Annotation[],
  storage: { setValue(id: string, value: object): void },
) {
  const textFields = annotations.filter(
    (a) => a.subtype === 'Widget' && (a.fieldType === 'Tx' || a.fieldType === 'Ch'),
  );
  if (textFields.length === 0) return page.getOperatorList();
  for (const field of textFields) storage.setValue(field.id, { value: 'Preflight' });
  return page.getOperatorList({ intent: 'print', annotationMode: AnnotationMode.ENABLE_STORAGE });
}

export async function pageFacts(page: PDFPageProxy, doc: PDFDocumentProxy): Promise<PageFacts> {
  const annotations = (await page.getAnnotations()) as Annotation[];
  const ops = await operatorsWithFilledFields(page, annotations, doc.annotationStorage);
  const fonts = new Map<string, FontFacts>();
  const images: ImageFacts[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let hasText = false;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[];
    switch (fn) {
      case OPS.save:
        stack.push(ctm);
        break;
      case OPS.restore:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.transform:
        ctm = multiply(ctm, args as Matrix);
        break;
      case OPS.paintFormXObjectBegin:
        stack.push(ctm);
        if (Array.isArray(args[0])) ctm = multiply(ctm, args[0] as Matrix);
        break;
      case OPS.paintFormXObjectEnd:
        ctm = stack.pop() ?? ctm;
        break;
      case OPS.setFont: {
        const loadedName = String(args[0]);
        if (!fonts.has(loadedName) && page.commonObjs.has(loadedName)) {
          const font = page.commonObjs.get(loadedName) as FontObject;
          fonts.set(loadedName, {
            name: font.name ?? loadedName,
            type: font.isType3Font ? 'Type3' : (font.type ?? 'unknown'),
            embedded: font.isType3Font === true || font.missingFile === false,
          });
        }
        break;
      }
      case OPS.paintImageXObject:
      case OPS.paintImageXObjectRepeat: {
        const width = Number(args[1]);
        const height = Number(args[2]);
        if (width > 0 && height > 0)
          images.push({ width_px: width, height_px: height, dpi: effectiveDpi(width, height, ctm) });
        break;
      }
      case OPS.showText:
      case OPS.showSpacedText:
      case OPS.nextLineShowText:
      case OPS.nextLineSetSpacingShowText:
        // the operator list already holds the decoded glyphs: no second pass for a text layer
        if (!hasText) hasText = glyphsHaveText(args);
        break;
      case OPS.paintInlineImageXObject: {
        const image = args[0] as { width?: number; height?: number } | undefined;
        if (image?.width && image.height) {
          images.push({
            width_px: image.width,
            height_px: image.height,
            dpi: effectiveDpi(image.width, image.height, ctm),
          });
        }
        break;
      }
    }
  }
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  return {
    width_pt: Math.round((x1 - x0) * 100) / 100,
    height_pt: Math.round((y1 - y0) * 100) / 100,
    rotation: page.rotate,
    fonts: [...fonts.values()],
    has_text: hasText,
    images,
    annotations: annotations.length,
    links: annotations.filter((a) => a.subtype === 'Link').length,
  };
}

export async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let out = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    out += item.str;
    if (item.hasEOL) out += '\n';
  }
  return out;
}
