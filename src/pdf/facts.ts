import type { Schemas } from '../contract/schemas.js';
import { fontProgramType, isStandard14, nonEmbeddedFontType } from './font-program.js';
import { KEPT_PAGES } from './thread-cache.js';
import type { Pdfium } from './pdfium.js';
import type { CosFile } from './cos/file.js';
import { isDict, type PdfDict } from './cos/syntax.js';
import {
  catalogFacts,
  NO_CATALOG_FACTS,
  type ColorSpaceName,
  encodingOf,
  formFonts,
  type ListedFont,
  type PageStructure,
  pageStructure,
  type RawImage,
} from './structure.js';

/** What opening a file tells: enough to accept an upload. */
export interface ProbeFacts {
  pageCount: number | null;
  pdfVersion: string | null;
  encrypted: boolean;
}

type PreflightReport = Schemas['PreflightReport'];
type RuleFailure = Schemas['RuleFailure'];

/**
 * What judges a file's objects and each page's content by published rules, handed in by whoever runs the
 * reader (the parser thread hands in the rules layer): the reader knows no rule, it gives the objects.
 */
export interface ObjectJudges {
  /** `ruleSet`: the name of the set of rules to judge by, as the judges name their sets. */
  document(cos: CosFile, ruleSet: string): RuleFailure[];
  page(cos: CosFile, page: PdfDict, pageNumber: number, ruleSet: string): RuleFailure[];
}
/** The document's own facts; its `spot_colors` are the pages', gathered by the report. */
export type DocumentFacts = Omit<PreflightReport['document'], 'spot_colors'>;
type PageReport = PreflightReport['pages'][number];
/** A font of the page; `used_for_rendering` until the generated contract types carry it. */
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
  boxes: NonNullable<PageReport['boxes']>;
};

/** PDFium's FPDF_COLORSPACE_* values, for an image with no dictionary of its own (an inline image). */
const PDFIUM_COLOR_SPACES: Record<number, ColorSpaceName> = {
  1: 'gray',
  2: 'rgb',
  3: 'cmyk',
  4: 'gray',
  5: 'rgb',
  6: 'lab',
  7: 'icc',
  8: 'separation',
  9: 'devicen',
  10: 'indexed',
};

/** How many components a colour space family has, where the family alone says it. */
const COMPONENTS: Partial<Record<ColorSpaceName, number>> = {
  gray: 1,
  rgb: 3,
  cmyk: 4,
  lab: 3,
  separation: 1,
  indexed: 1,
};

/** The encodings whose decoding PDFium leaves to the image's own codec. */
const IMAGE_CODECS = new Set<RawImage['encoding']>(['dct', 'jpx', 'jbig2', 'ccitt']);

const SUBSET_PREFIX = /^[A-Z]{6}\+/;

const sameFacts = (a: RawImage, b: RawImage) =>
  a.color_space === b.color_space &&
  a.icc_components === b.icc_components &&
  a.bits_per_component === b.bits_per_component;

/**
 * The dictionary of a drawn image, among the page's: PDFium does not say which XObject an image object
 * draws, so it is found by pixel size and coding; where those leave images that differ, by PDFium's reading
 * of the image (`read`, asked only then: it loads the image), its colour space and bits first.
 */
function matchImage(
  images: RawImage[] | undefined,
  width: number,
  height: number,
  encoding: RawImage['encoding'],
  read: () => RawImage,
): RawImage | undefined {
  const sized = images?.filter((image) => image.width === width && image.height === height) ?? [];
  const coded = sized.filter((image) => image.encoding === encoding);
  const candidates = coded.length > 0 ? coded : sized;
  const first = candidates[0];
  if (!first || candidates.every((image) => sameFacts(image, first))) return first;
  const seen = read();
  return (
    candidates.find(
      (image) =>
        image.color_space === seen.color_space && image.bits_per_component === seen.bits_per_component,
    ) ??
    candidates.find((image) => image.color_space === seen.color_space) ??
    first
  );
}

const OBJ_TEXT = 1;
const OBJ_IMAGE = 3;
const OBJ_FORM = 5;
const ANNOT_LINK = 2;
const ANNOT_WIDGET = 20;
const FORMTYPE_NONE = 0;
const FORMTYPE_ACRO = 1;

type Matrix = [number, number, number, number, number, number];

/**
 * What a walk over a page's objects gathers; `structure` is the page's dictionary facts, when readable.
 * `fonts`: PDFium's font handles drawn with, each to the listed font it is (or, for a font the page's resources
 * do not hold, such as one of a field appearance PDFium made, to facts of its own).
 */
interface Found {
  fonts: Map<number, FontFacts | ListedFont>;
  /** The listed fonts some text is drawn with. */
  used: Set<ListedFont>;
  /** Fonts drawn with that the page's resources do not list, in the order met. */
  unlisted: FontFacts[];
  images: ImageFacts[];
  text: boolean;
  structure: PageStructure | undefined;
  page: number;
}
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `inner` drawn inside a form whose matrix is `outer`. */
function compose(inner: Matrix, outer: Matrix): Matrix {
  return [
    inner[0] * outer[0] + inner[1] * outer[2],
    inner[0] * outer[1] + inner[1] * outer[3],
    inner[2] * outer[0] + inner[3] * outer[2],
    inner[2] * outer[1] + inner[3] * outer[3],
    inner[4] * outer[0] + inner[5] * outer[2] + outer[4],
    inner[4] * outer[1] + inner[5] * outer[3] + outer[5],
  ];
}

/** Pixels per inch of an image drawn into the unit square under `m` (the lower of both axes). */
function effectiveDpi(widthPx: number, heightPx: number, m: Matrix): number | null {
  const widthPt = Math.hypot(m[0], m[1]);
  const heightPt = Math.hypot(m[2], m[3]);
  if (widthPt === 0 || heightPt === 0) return null;
  const dpi = Math.min(widthPx / (widthPt / 72), heightPx / (heightPt / 72));
  return Math.round(dpi * 10) / 10;
}

function version(code: number): string | null {
  return code > 0 ? `${Math.floor(code / 10)}.${code % 10}` : null;
}

/**
 * Facts of one open document, read with PDFium. A page's fonts are those pdffonts lists (its resources',
 * its forms' and patterns', its annotation appearances'), each marked `used_for_rendering` when PDFium draws
 * text with it: the fonts ISO 14289-1 7.21.4.1 and ISO 19005-2 6.2.11.4.1 ask to be embedded. An empty form
 * field's appearance font is listed and used for no rendering.
 */
export class DocumentReader {
  private form = 0;
  private formInfo = 0;
  private readonly fontTypes = new Map<string, string>();
  private readonly scratch: number;
  /** Pages kept loaded after their task, oldest first. */
  private readonly loaded = new Map<number, number>();

  private formFontsCache: Map<string, ListedFont> | undefined;

  /** `objects` opens the file's object reader, once, when a fact needs it. */
  constructor(
    private readonly pdfium: Pdfium,
    readonly handle: number,
    private readonly objects: () => CosFile,
    private readonly judges?: ObjectJudges,
  ) {
    this.scratch = pdfium.malloc(64);
  }

  private get lib() {
    return this.pdfium.lib;
  }

  private get direct() {
    return this.pdfium.direct;
  }

  private i32(offset: number): number {
    return this.lib.pdfium.getValue(this.scratch + offset, 'i32');
  }

  private f32(offset: number): number {
    return this.lib.pdfium.getValue(this.scratch + offset, 'float');
  }

  close(): void {
    this.releasePages();
    if (!this.pdfium.isAborted) {
      if (this.form) this.lib.PDFiumExt_ExitFormFillEnvironment(this.form);
      if (this.formInfo) this.lib.PDFiumExt_CloseFormFillInfo(this.formInfo);
      this.pdfium.free(this.scratch);
    }
  }

  probe(): ProbeFacts {
    return this.pdfium.call(() => ({
      pageCount: this.lib.FPDF_GetPageCount(this.handle),
      pdfVersion: this.lib.FPDF_GetFileVersion(this.handle, this.scratch) ? version(this.i32(0)) : null,
      encrypted: this.lib.FPDF_GetSecurityHandlerRevision(this.handle) !== -1,
    }));
  }

  private meta(key: string): string | null {
    const value = this.pdfium.readString(
      (buffer, length) => this.lib.FPDF_GetMetaText(this.handle, key, buffer, length),
      'utf16',
    );
    return value.trim() === '' ? null : value;
  }

  /** `judged`: the objects are judged by the reader's judges too (`rule_failures`), by that rule set. */
  documentFacts(judged?: string): DocumentFacts {
    return this.pdfium.call(() => {
      const probe = this.probe();
      const formType = this.lib.FPDF_GetFormType(this.handle);
      const pdfx = this.meta('GTS_PDFXVersion');
      const language = this.pdfium.readString(
        (buffer, length) => this.lib.FPDFCatalog_GetLanguage(this.handle, buffer, length),
        'utf16',
      );
      const catalog = this.structureOr(
        () => {
          const cos = this.objects();
          return catalogFacts(cos, cos.read(0, 1024), pdfx);
        },
        { ...NO_CATALOG_FACTS, pdfx },
      );
      return {
        pdf_version: probe.pdfVersion,
        page_count: probe.pageCount,
        encrypted: probe.encrypted,
        title: this.meta('Title'),
        author: this.meta('Author'),
        producer: this.meta('Producer'),
        form: formType === FORMTYPE_NONE ? 'none' : formType === FORMTYPE_ACRO ? 'AcroForm' : 'XFA',
        javascript:
          this.lib.FPDFDoc_GetJavaScriptActionCount(this.handle) > 0 ||
          catalog.actions.includes('JavaScript'),
        outline: this.lib.FPDFBookmark_GetFirstChild(this.handle, 0) !== 0,
        language: language.trim() === '' ? null : language,
        embedded_files: Math.max(0, this.lib.FPDFDoc_GetAttachmentCount(this.handle)),
        ...catalog,
        ...(this.judges && judged ? { rule_failures: this.judges.document(this.objects(), judged) } : {}),
      };
    });
  }

  /**
   * Hands page `index` (0-based) to `work`. Loading a page parses its whole content, often the costliest step
   * of a task; the last KEPT_PAGES pages read stay loaded, so a thumbnail of a page whose facts were just read
   * does not parse it again. A page whose work failed is closed at once.
   */
  private withPage<T>(index: number, work: (page: number) => T): T {
    return this.pdfium.call(() => {
      let page = this.loaded.get(index);
      this.loaded.delete(index);
      page ??= this.lib.FPDF_LoadPage(this.handle, index);
      if (!page) throw new Error('The page object is missing or damaged');
      let done = false;
      try {
        const result = work(page);
        done = true;
        return result;
      } finally {
        if (!this.pdfium.isAborted) {
          if (done) this.keepLoaded(index, page);
          else this.lib.FPDF_ClosePage(page);
        }
      }
    });
  }

  private keepLoaded(index: number, page: number): void {
    this.loaded.set(index, page);
    for (const [oldest, handle] of this.loaded) {
      if (this.loaded.size <= KEPT_PAGES) break;
      this.loaded.delete(oldest);
      this.lib.FPDF_ClosePage(handle);
    }
  }

  /** Closes the pages kept loaded (their memory goes back to PDFium's heap). */
  releasePages(): void {
    if (!this.pdfium.isAborted) for (const handle of this.loaded.values()) this.lib.FPDF_ClosePage(handle);
    this.loaded.clear();
  }

  private fontType(font: number, name: string, embedded: boolean): string {
    const key = `${name}\u0000${embedded}`;
    let type = this.fontTypes.get(key);
    if (type === undefined) {
      type = embedded ? this.embeddedFontType(font) : nonEmbeddedFontType(name);
      this.fontTypes.set(key, type);
    }
    return type;
  }

  private embeddedFontType(font: number): string {
    const lengthAt = this.scratch + 60;
    if (!this.lib.FPDFFont_GetFontData(font, 0, 0, lengthAt)) return 'Type3';
    const length = this.lib.pdfium.getValue(lengthAt, 'i32');
    if (length < 4) return 'Type3';
    const buffer = this.pdfium.malloc(length);
    try {
      this.lib.FPDFFont_GetFontData(font, buffer, length, lengthAt);
      return fontProgramType(this.pdfium.heap().slice(buffer, buffer + 4));
    } finally {
      this.pdfium.free(buffer);
    }
  }

  private matrixOf(object: number): Matrix {
    if (!this.direct.FPDFPageObj_GetMatrix(object, this.scratch)) return IDENTITY;
    return [this.f32(0), this.f32(4), this.f32(8), this.f32(12), this.f32(16), this.f32(20)];
  }

  /** Walks page objects, into form XObjects, collecting fonts, images and whether any text is drawn. */
  private collect(objects: { count: number; at: (i: number) => number }, outer: Matrix, into: Found): void {
    for (let i = 0; i < objects.count; i++) {
      const object = objects.at(i);
      const type = this.direct.FPDFPageObj_GetType(object);
      if (type === OBJ_TEXT) {
        into.text = true;
        const font = this.direct.FPDFTextObj_GetFont(object);
        if (font && !into.fonts.has(font)) this.drawnFont(font, into);
      } else if (type === OBJ_IMAGE) {
        // stencil masks (/ImageMask) are image objects too, as pdfimages lists them
        if (this.direct.FPDFImageObj_GetImagePixelSize(object, this.scratch, this.scratch + 4)) {
          const width = this.i32(0) >>> 0;
          const height = this.i32(4) >>> 0;
          if (width > 0 && height > 0) {
            const placed = compose(this.matrixOf(object), outer);
            const encoding = this.imageEncoding(object);
            const raw =
              matchImage(into.structure?.images, width, height, encoding, () =>
                this.pdfiumImage(object, into.page, encoding),
              ) ?? this.pdfiumImage(object, into.page, encoding);
            into.images.push({
              width_px: width,
              height_px: height,
              dpi: effectiveDpi(width, height, placed),
              color_space: raw.color_space,
              icc_components: raw.icc_components,
              bits_per_component: raw.bits_per_component,
              encoding: raw.encoding,
            });
          }
        }
      } else if (type === OBJ_FORM) {
        const inner = compose(this.matrixOf(object), outer);
        this.collect(
          {
            count: this.direct.FPDFFormObj_CountObjects(object),
            at: (j) => this.direct.FPDFFormObj_GetObject(object, j),
          },
          inner,
          into,
        );
      }
    }
  }

  /**
   * A font PDFium draws text with: the page's listed font of its name (of two of one name, one not yet
   * matched whose embedding and flags PDFium confirms), else a font of its own.
   */
  private drawnFont(font: number, into: Found): void {
    const name =
      this.pdfium.readString(
        (buffer, length) => this.lib.FPDFFont_GetBaseFontName(font, buffer, length),
        'utf8',
      ) || 'unnamed';
    const embedded = this.direct.FPDFFont_GetIsEmbedded(font) === 1;
    const named = into.structure?.listed_fonts.filter((listed) => listed.name === name) ?? [];
    let listed: ListedFont | undefined = named[0];
    if (named.length > 1) {
      const flags = this.lib.FPDFFont_GetFlags(font);
      const fresh = named.filter((candidate) => !into.used.has(candidate));
      listed =
        fresh.find((c) => c.embedded === embedded && c.flags === flags) ??
        fresh.find((c) => c.embedded === embedded) ??
        fresh[0] ??
        listed;
    }
    listed ??= into.structure?.fonts.get(name);
    if (listed && into.structure?.listed_fonts.includes(listed)) {
      into.used.add(listed);
      into.fonts.set(font, listed);
      return;
    }
    const known = this.formFonts().get(name);
    // a standard font of no font resource is PDFium's stand-in for one it does not take (an
    // ExtGState's /Font, text before any Tf): not the file's font, and pdffonts does not list it
    if (!known && !embedded && into.structure && isStandard14(name)) return;
    const facts: FontFacts = {
      name,
      type: this.fontType(font, name, embedded),
      embedded,
      subset: (known?.subset ?? false) || SUBSET_PREFIX.test(name),
      to_unicode: known?.to_unicode ?? false,
      encoding: known?.encoding ?? null,
      unicode_mapping: known?.unicode_mapping ?? 'none',
      used_for_rendering: true,
    };
    into.fonts.set(font, facts);
    into.unlisted.push(facts);
  }

  /** The page's fonts: those pdffonts lists, in its order, then those drawn with that it does not list. */
  private pageFonts(found: Found): FontFacts[] {
    const listed = (found.structure?.listed_fonts ?? []).map((font): FontFacts => ({
      name: font.name,
      type: font.type === 'unknown' && !font.embedded ? nonEmbeddedFontType(font.name) : font.type,
      embedded: font.embedded,
      subset: font.subset,
      to_unicode: font.to_unicode,
      encoding: font.encoding,
      unicode_mapping: font.unicode_mapping,
      used_for_rendering: found.used.has(font),
    }));
    return [...listed, ...found.unlisted];
  }

  private formFonts(): Map<string, ListedFont> {
    this.formFontsCache ??= this.structureOr(() => formFonts(this.objects()), new Map());
    return this.formFontsCache;
  }

  /** A structure fact, or `fallback` when the file's objects cannot be read for it. */
  private structureOr<T>(read: () => T, fallback: T): T {
    // these facts are a second reading of the file: one it cannot make leaves PDFium's facts standing
    try {
      return read();
    } catch {
      return fallback;
    }
  }

  /** The image's coding, from its last filter. */
  private imageEncoding(object: number): RawImage['encoding'] {
    const count = this.lib.FPDFImageObj_GetImageFilterCount(object);
    if (count <= 0) return 'none';
    return encodingOf([
      this.pdfium.readString(
        (buffer, length) => this.lib.FPDFImageObj_GetImageFilter(object, count - 1, buffer, length),
        'utf8',
      ),
    ]);
  }

  /**
   * What PDFium tells of an image: all there is of one without a dictionary of its own (inline, `BI`). Its bits per component
   * are PDFium's bits per pixel over the colour space's components, where the family fixes their number (an
   * ICC profile's or a DeviceN's count is not told); a stencil mask (no colour space) has one bit.
   */
  private pdfiumImage(object: number, page: number, encoding: RawImage['encoding']): RawImage {
    if (!this.lib.FPDFImageObj_GetImageMetadata(object, page, this.scratch))
      return {
        width: 0,
        height: 0,
        color_space: null,
        icc_components: null,
        bits_per_component: null,
        encoding,
      };
    const space = PDFIUM_COLOR_SPACES[this.i32(20)] ?? null;
    const bitsPerPixel = this.i32(16);
    const components = space === null ? (bitsPerPixel === 1 ? 1 : undefined) : COMPONENTS[space];
    const width = this.i32(0) >>> 0;
    const height = this.i32(4) >>> 0;
    let bits = components ? bitsPerPixel / components : NaN;
    // PDFium keeps 2 and 4 bits of one component as 8 bits a pixel; the length of the image's data, its
    // filters undone (not an image codec's), tells them apart: each row is whole bytes (ISO 32000-1, 8.9.3).
    // Only for images of at most 16 M pixels: a larger one is not decoded for the sake of one fact
    if (components === 1 && bitsPerPixel === 8 && !IMAGE_CODECS.has(encoding) && width * height <= 2 ** 24) {
      const length = this.lib.FPDFImageObj_GetImageDataDecoded(object, 0, 0);
      bits = [1, 2, 4, 8].find((b) => Math.ceil((width * b) / 8) * height === length) ?? bits;
    }
    return {
      width,
      height,
      color_space: space,
      icc_components: null,
      bits_per_component: Number.isInteger(bits) && bits > 0 && bits <= 16 ? bits : null,
      encoding,
    };
  }

  private formHandle(): number {
    if (!this.form && this.lib.FPDF_GetFormType(this.handle) !== FORMTYPE_NONE) {
      this.formInfo = this.lib.PDFiumExt_OpenFormFillInfo();
      this.form = this.lib.PDFiumExt_InitFormFillEnvironment(this.handle, this.formInfo);
    }
    return this.form;
  }

  pageFacts(index: number, judged?: string): PageFacts {
    const objectNumber = this.pdfium.call(() =>
      this.lib.EPDFDoc_GetPageObjectNumberByIndex(this.handle, index),
    );
    const structure =
      objectNumber > 0
        ? this.structureOr(() => pageStructure(this.objects(), objectNumber), undefined)
        : undefined;
    return this.withPage(index, (page) => {
      const found: Found = {
        fonts: new Map(),
        used: new Set(),
        unlisted: [],
        images: [],
        text: false,
        structure,
        page,
      };
      this.collect(
        {
          count: this.direct.FPDFPage_CountObjects(page),
          at: (i) => this.direct.FPDFPage_GetObject(page, i),
        },
        IDENTITY,
        found,
      );
      const annotations = this.lib.FPDFPage_GetAnnotCount(page);
      let links = 0;
      let formLoaded = false;
      for (let i = 0; i < annotations; i++) {
        const annot = this.lib.FPDFPage_GetAnnot(page, i);
        if (!annot) continue;
        try {
          const subtype = this.lib.FPDFAnnot_GetSubtype(annot);
          if (subtype === ANNOT_LINK) {
            links++;
            continue;
          }
          if (subtype === ANNOT_WIDGET) {
            const form = this.formHandle();
            if (form && !formLoaded) {
              this.lib.FORM_OnAfterLoadPage(page, form);
              formLoaded = true;
            }
          } else if (found.used.size === (structure?.listed_fonts.length ?? 0)) continue;
          // only the fonts of an appearance (a field's, a free text's): its images are not the page's content
          const fieldFound: Found = { ...found, images: [], text: false };
          this.collect(
            {
              count: this.direct.FPDFAnnot_GetObjectCount(annot),
              at: (j) => this.direct.FPDFAnnot_GetObject(annot, j),
            },
            IDENTITY,
            fieldFound,
          );
        } finally {
          this.lib.FPDFPage_CloseAnnot(annot);
        }
      }
      if (formLoaded) this.lib.FORM_OnBeforeClosePage(page, this.form);
      const rotation = this.lib.FPDFPage_GetRotation(page) * 90;
      // PDFium answers the size as displayed; the report gives it unrotated, as pdfinfo does
      const width = this.lib.FPDF_GetPageWidthF(page);
      const height = this.lib.FPDF_GetPageHeightF(page);
      const [w, h] = rotation % 180 === 0 ? [width, height] : [height, width];
      const whole: [number, number, number, number] = [
        0,
        0,
        Math.round(w * 100) / 100,
        Math.round(h * 100) / 100,
      ];
      return {
        width_pt: Math.round(w * 100) / 100,
        height_pt: Math.round(h * 100) / 100,
        rotation,
        boxes: structure?.boxes ?? { media: whole, crop: whole, bleed: whole, trim: whole, art: whole },
        transparency: (structure?.transparency ?? false) || this.lib.FPDFPage_HasTransparency(page),
        group_color_space: structure?.group_color_space ?? null,
        group_device_colors: structure?.group_device_colors ?? [],
        spot_colors: structure?.spot_colors ?? [],
        fonts: this.pageFonts(found),
        has_text: found.text,
        images: found.images,
        annotations,
        links,
        annotation_details: structure?.annotation_details ?? [],
        tab_order: structure?.tab_order ?? null,
        blend_modes: structure?.blend_modes ?? [],
        transfer_functions: structure?.transfer_functions ?? false,
        rendering_intents: structure?.rendering_intents ?? [],
        interpolated_images: structure?.interpolated_images ?? 0,
        device_colors: structure?.content.device_colors ?? [],
        untagged_content: structure?.content.untagged_content ?? 0,
        tagged_in_artifacts: structure?.content.tagged_in_artifacts ?? 0,
        ...(this.judges && judged && objectNumber > 0
          ? { rule_failures: this.pageRuleFailures(objectNumber, index, judged) }
          : {}),
      };
    });
  }

  private pageRuleFailures(objectNumber: number, index: number, ruleSet: string): RuleFailure[] {
    // a rule's own fault is not the file's: it fails the task, where a fallback would read as a pass
    const cos = this.objects();
    const page = cos.object(objectNumber);
    return isDict(page) ? this.judges!.page(cos, page, index + 1, ruleSet) : [];
  }

  pageText(index: number): string {
    return this.withPage(index, (page) => {
      const textPage = this.lib.FPDFText_LoadPage(page);
      if (!textPage) throw new Error('The page text could not be read');
      try {
        const count = this.lib.FPDFText_CountChars(textPage);
        if (count <= 0) return '';
        const buffer = this.pdfium.malloc((count + 1) * 2);
        try {
          this.lib.FPDFText_GetText(textPage, 0, count, buffer);
          return this.lib.pdfium.UTF16ToString(buffer).replace(/\r\n?/g, '\n');
        } finally {
          this.pdfium.free(buffer);
        }
      } finally {
        this.lib.FPDFText_ClosePage(textPage);
      }
    });
  }

  /** The page drawn `width` pixels wide (height by its aspect, at most twice the width), as RGB. */
  renderPage(index: number, width: number): { width: number; height: number; rgb: Uint8Array } {
    return this.withPage(index, (page) => {
      const pageWidth = this.lib.FPDF_GetPageWidthF(page);
      const pageHeight = this.lib.FPDF_GetPageHeightF(page);
      if (!(pageWidth > 0 && pageHeight > 0)) throw new Error('The page has no size');
      const height = Math.max(1, Math.min(width * 2, Math.round((width * pageHeight) / pageWidth)));
      const bitmap = this.lib.FPDFBitmap_Create(width, height, 0);
      if (!bitmap) throw new Error('No memory for the page image');
      try {
        this.lib.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xffffffff);
        const FPDF_ANNOT = 0x01;
        this.lib.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, FPDF_ANNOT);
        const stride = this.lib.FPDFBitmap_GetStride(bitmap);
        const source = this.pdfium
          .heap()
          .subarray(
            this.lib.FPDFBitmap_GetBuffer(bitmap),
            this.lib.FPDFBitmap_GetBuffer(bitmap) + stride * height,
          );
        const rgb = new Uint8Array(width * height * 3);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const from = y * stride + x * 4;
            const to = (y * width + x) * 3;
            // PDFium's bitmaps are BGRx
            rgb[to] = source[from + 2]!;
            rgb[to + 1] = source[from + 1]!;
            rgb[to + 2] = source[from]!;
          }
        }
        return { width, height, rgb };
      } finally {
        this.lib.FPDFBitmap_Destroy(bitmap);
      }
    });
  }
}
