import {
  isDict,
  isStream,
  nameOf,
  type PdfDict,
  PdfRef,
  type PdfStream,
  type PdfValue,
} from '../cos/syntax.js';
import type { CosFile } from '../cos/file.js';
import { jpeg2000Header, type Jpeg2000Header } from './graphics/jpeg2000.js';
import { type Operation, pageOperations } from './operations.js';
import type { Builders, Emitter, ModelNode, PageSource } from './node.js';

/**
 * The graphics objects of a page, as read from the file: every XObject, graphics state, halftone, group and
 * rendering intent its resources hold (forms', patterns', Type 3 fonts' and annotation appearances' resources
 * included), each with `drawn`: whether the page's content (or a content it draws: a form, a glyph, a
 * pattern, a soft mask, an annotation's appearance) uses it. Inline images and the `ri` operator are read
 * from the content itself. A rule chooses whether it judges every object or only the drawn ones.
 */
interface Drawable extends ModelNode {
  /** The object's number; undefined for a direct object. */
  objectNumber: number | undefined;
  /** Used by the content of the page (its forms, glyphs, patterns, soft masks, annotation appearances). */
  drawn: boolean;
}

/** An image: an image XObject, an inline image, or one an image refers to (its SMask, Mask, Alternates). */
export interface ImageNode extends Drawable {
  inline: boolean;
  /** How the page reaches it: drawn itself, or as another image's soft mask, mask or alternate. */
  role: 'image' | 'soft mask' | 'mask' | 'alternate';
  /** `ImageMask` (`IM`) true: a stencil mask. */
  imageMask: boolean;
  hasAlternates: boolean;
  hasOpi: boolean;
  /** `Interpolate` (`I`) as written, when a boolean. */
  interpolate: boolean | undefined;
  /** `BitsPerComponent` (`BPC`) when a number. */
  bitsPerComponent: number | undefined;
  /** `Intent` when a name. */
  intent: string | undefined;
  /** The stream's filters, by name (abbreviations as written). */
  filters: string[];
  hasColorSpace: boolean;
  /** The dictionary holds an `SMask` entry (any value). */
  hasSMask: boolean;
}

/** An XObject of any subtype, as its dictionary says. */
export interface XObjectNode extends Drawable {
  subtype: string | undefined;
  hasOpi: boolean;
  hasSMask: boolean;
}

/** A form XObject (an annotation's appearance streams and soft masks' groups are forms too). */
export interface FormNode extends Drawable {
  hasPs: boolean;
  /** `Subtype2` when a name. */
  subtype2: string | undefined;
  hasOpi: boolean;
  /** `Ref`: a reference XObject. */
  hasRef: boolean;
  /** `StructParents`, when an integer: its marked content belongs to the structure as a whole. */
  structParents: number | undefined;
  /**
   * How many `Do` operators of this page's content draw it (the forms, glyphs, patterns, soft masks and
   * annotation appearances it reaches included; a form read once per page counts its own `Do`s once).
   */
  timesDrawn: number;
  /**
   * The pages known to draw it: this one (when it does) and those of the same file read before it. Pages
   * are read in turn; a page read apart from the others knows only itself. Counted for forms with
   * `StructParents` only (0 for the others).
   */
  pagesDrawnOn: number;
}

/** An ExtGState dictionary. */
export interface GraphicsStateNode extends Drawable {
  hasTR: boolean;
  /** `TR2` when present: its name, or `''` when it is a function or array. */
  tr2: string | undefined;
  hasHTP: boolean;
  /** `SMask` when present: its name, or `''` for a soft-mask dictionary. */
  softMask: string | undefined;
  /** `BM`: the name, or each name of an array; empty when absent. */
  blendModes: string[];
  /** `BM` is written and is neither a name nor an array of names. */
  blendModeUnreadable: boolean;
  /** `BM` is written (any value). */
  hasBM: boolean;
  /** `BM` when it is a name (not an array). */
  blendModeName: string | undefined;
  /** `CA` and `ca` when written: the number, or NaN when the value is not a number. */
  strokeAlpha: number | undefined;
  fillAlpha: number | undefined;
}

/**
 * The blend mode a graphics state's `BM` names: the name, or the first name of an array (the one a reader
 * tries first; ISO 32000-1 11.6.3).
 */
export interface BlendModeNode extends Drawable {
  name: string;
}

/** A halftone dictionary or stream: a graphics state's `HT`, or a component of a type 5 halftone. */
export interface HalftoneNode extends Drawable {
  halftoneType: number | undefined;
  hasHalftoneName: boolean;
  hasTransferFunction: boolean;
  /** In a type 5 halftone, the colorant it screens (its key); undefined for a halftone of its own. */
  colorant: string | undefined;
}

/** A rendering intent named anywhere: a graphics state's `RI`, an image's `Intent`, the `ri` operator. */
export interface RenderingIntentNode extends Drawable {
  name: string;
  source: 'graphics state' | 'image' | 'inline image' | 'ri operator';
}

/** A group attributes dictionary (`Group`) of a page or a form XObject. */
export interface GroupNode extends Drawable {
  owner: 'page' | 'form';
  /** `S`, the group subtype (Transparency). */
  subtype: string | undefined;
  hasColorSpace: boolean;
}

/** A JPEG 2000 image (`JPXDecode`) and what its header says. */
export interface Jpeg2000Node extends Drawable, Jpeg2000Header {
  /** The image dictionary has a `ColorSpace` entry (which then overrides the data's own). */
  hasColorSpace: boolean;
}

/** A page and the transparency its content paints with. */
export interface PageTransparencyNode extends ModelNode {
  /**
   * Something is painted with transparency: a graphics state with an alpha under 1, a blend mode other
   * than Normal and Compatible or a soft mask in force, an image with a soft mask, a transparency group.
   */
  usesTransparency: boolean;
  /** The page's `Group` has a `CS` entry. */
  groupHasColorSpace: boolean;
  /** The catalog's output intents hold a GTS_PDFA1 intent with a destination profile. */
  pdfaOutputIntent: boolean;
}

export interface GraphicsKinds {
  image: ImageNode;
  xobject: XObjectNode;
  form: FormNode;
  graphics_state: GraphicsStateNode;
  blend_mode: BlendModeNode;
  halftone: HalftoneNode;
  rendering_intent: RenderingIntentNode;
  group: GroupNode;
  jpeg2000: Jpeg2000Node;
  page_transparency: PageTransparencyNode;
}

/** Resource dictionaries, XObjects and content streams read per page, at most. */
const MAX_NODES = 20_000;
const MAX_DEPTH = 12;
/** Extra content streams (glyphs, patterns, soft masks, appearances) read per page. */
const MAX_EXTRA_STREAMS = 2_000;
/** The most of a JPEG 2000 stream read for its header. */
const JPX_HEADER_BYTES = 64 * 1024;
/** An alpha this close to 1 composites as opaque (a writer's float: 0.9999999). */
const OPAQUE = 1 - 1e-6;

const PAINT_FILL = new Set(['f', 'F', 'f*', 'sh', 'BI']);
const SHOW_TEXT = new Set(['Tj', 'TJ', "'", '"']);
/** Text rendering modes (`Tr`, ISO 32000-1 9.3.6) that fill the glyphs, and those that stroke them. */
const TEXT_FILLS = new Set([0, 2, 4, 6]);
const TEXT_STROKES = new Set([1, 2, 5, 6]);
const PAINT_STROKE = new Set(['S', 's']);
const PAINT_BOTH = new Set(['B', 'B*', 'b', 'b*']);

const numberOf = (value: PdfValue | undefined) => (typeof value === 'number' ? value : undefined);
/** A value written for a number: the number, NaN for anything else, undefined when absent. */
const writtenNumber = (value: PdfValue | undefined) =>
  value === undefined || value === null ? undefined : typeof value === 'number' ? value : Number.NaN;
const refNum = (value: PdfValue | undefined) => (value instanceof PdfRef ? value.num : undefined);
const filterNames = (cos: CosFile, value: PdfValue | undefined): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value])
    .map((f) => nameOf(cos.resolve(f)))
    .filter((n): n is string => n !== undefined);
/** An inline image's entry, by its full or abbreviated key. */
const inlineEntry = (dict: PdfDict, full: string, short: string) => dict.get(full) ?? dict.get(short);

/** The transparency in force: what `gs` set, as far as a painting operator is concerned. */
interface PaintState {
  /** `ca` under 1. */
  fillAlpha: boolean;
  /** `CA` under 1. */
  strokeAlpha: boolean;
  /** A blend mode other than Normal and Compatible. */
  blend: boolean;
  /** A soft mask other than None. */
  mask: boolean;
  /** The text rendering mode (`Tr`): invisible text (3, 7) paints nothing. */
  textMode: number;
}

const fills = (s: PaintState) => s.fillAlpha || s.blend || s.mask;
const strokes = (s: PaintState) => s.strokeAlpha || s.blend || s.mask;

/** One page's reading: what its content draws, then every graphics object of its resources. */
class PageGraphics {
  /** Drawn objects, by identity (the dictionary of a stream, or the dictionary itself). */
  private readonly drawn = new Set<object>();
  private readonly emitted = new Set<object>();
  private readonly queued = new Set<object>();
  private readonly queue: {
    stream: { stream: PdfStream };
    resources: PdfValue | undefined;
    /** Its `Do`s are counted: false for a form the page's operations already read in place. */
    countsDraws: boolean;
  }[] = [];
  /** `Do` operators per form drawn, by the form's dictionary. */
  private readonly draws = new Map<PdfDict, number>();
  private nodes = 0;
  usesTransparency = false;

  constructor(
    private readonly source: PageSource,
    private readonly out: Emitter<GraphicsKinds>,
  ) {}

  private get cos(): CosFile {
    return this.source.cos;
  }

  /** `key` is written with a value: an entry whose value is null is no entry (ISO 32000-1, 7.3.7). */
  private has(dict: PdfDict, key: string): boolean {
    const value = this.cos.get(dict, key);
    return value !== undefined && value !== null;
  }

  private label(num: number | undefined, what: string): string {
    return num === undefined
      ? `${what} on page ${this.source.pageNumber}`
      : `object ${num} (${what}, page ${this.source.pageNumber})`;
  }

  /** Reads the content: the page's, then each stream it reaches (glyphs, patterns, soft masks, appearances). */
  readContent(): void {
    this.readOperations(this.source);
    for (const annotation of this.cos.array(this.source.page, 'Annots')) {
      const dict = this.cos.resolve(annotation);
      if (!isDict(dict)) continue;
      for (const appearance of this.appearanceStreams(dict)) this.enqueue(appearance, undefined);
    }
    for (let i = 0; i < this.queue.length && i < MAX_EXTRA_STREAMS; i++) {
      const { stream, resources, countsDraws } = this.queue[i]!;
      const own = stream.stream.dict.get('Resources');
      const page: PdfDict = new Map([['Contents', stream as PdfValue]]);
      this.readOperations({ ...this.source, page, resources: own ?? resources }, countsDraws);
    }
  }

  /** An annotation's appearance streams: N, R and D, each a stream or a dictionary of states. */
  private appearanceStreams(annotation: PdfDict): { stream: PdfStream }[] {
    const cos = this.cos;
    const ap = cos.dict(annotation, 'AP');
    const out: { stream: PdfStream }[] = [];
    for (const key of ['N', 'R', 'D']) {
      const value = cos.get(ap, key);
      if (isStream(value)) out.push(value);
      else if (isDict(value))
        for (const state of value.values()) {
          const stream = cos.resolve(state);
          if (isStream(stream)) out.push(stream);
        }
    }
    return out;
  }

  private enqueue(stream: PdfValue | undefined, resources: PdfValue | undefined, countsDraws = true): void {
    if (!isStream(stream) || this.queued.has(stream.stream.dict)) return;
    this.queued.add(stream.stream.dict);
    this.drawn.add(stream.stream.dict);
    this.queue.push({ stream, resources, countsDraws });
  }

  /** How many `Do`s of the page draw the form of dictionary `dict`. */
  timesDrawn(dict: PdfDict): number {
    return this.draws.get(dict) ?? 0;
  }

  private readOperations(source: PageSource, countsDraws = true): void {
    const cos = this.cos;
    let state: PaintState = { fillAlpha: false, strokeAlpha: false, blend: false, mask: false, textMode: 0 };
    const saved: PaintState[] = [];
    // a form is drawn in the state its Do found, and leaves it as it was (ISO 32000-1 8.10.1): the forms
    // pageOperations reads in place, each with the state and q stack it was entered with
    const forms: { form: number | undefined; state: PaintState; saved: number }[] = [];
    let previous: Operation | undefined;
    for (const op of pageOperations(source)) {
      if (op.form !== previous?.form) {
        if (previous?.op === 'Do' && op.form !== undefined && op.form !== forms[forms.length - 1]?.form)
          forms.push({ form: op.form, state, saved: saved.length });
        while (forms.length > 0 && forms[forms.length - 1]!.form !== op.form) {
          const left = forms.pop()!;
          state = left.state;
          saved.length = left.saved;
        }
      }
      previous = op;
      switch (op.op) {
        case 'q':
          saved.push(state);
          break;
        case 'Q':
          state = saved.pop() ?? state;
          break;
        case 'gs': {
          const gs = cos.resolve(cos.get(cos.dict(op.resources, 'ExtGState'), nameOf(op.operands[0]) ?? ''));
          if (!isDict(gs)) break;
          this.drawn.add(gs);
          state = this.applyState(state, gs, op.resources);
          break;
        }
        case 'Do': {
          const xobject = cos.get(cos.dict(op.resources, 'XObject'), nameOf(op.operands[0]) ?? '');
          if (!isStream(xobject)) break;
          const dict = xobject.stream.dict;
          this.drawn.add(dict);
          const subtype = nameOf(cos.get(dict, 'Subtype'));
          if (subtype === 'Image') {
            this.markImageParts(dict);
            const smaskInData = numberOf(cos.get(dict, 'SMaskInData')) ?? 0;
            if (fills(state) || isStream(cos.get(dict, 'SMask')) || smaskInData > 0)
              this.usesTransparency = true;
          } else if (subtype === 'Form') {
            if (countsDraws) this.draws.set(dict, (this.draws.get(dict) ?? 0) + 1);
            const group = cos.dict(dict, 'Group');
            if (nameOf(cos.get(group, 'S')) === 'Transparency') this.usesTransparency = true;
            // a form without its own resources uses its drawer's; pageOperations reads it in place
            if (refNum(this.rawXObject(op.resources, op.operands[0])) === undefined)
              this.enqueue(xobject, op.resources, false);
          }
          break;
        }
        case 'Tf': {
          const font = cos.get(cos.dict(op.resources, 'Font'), nameOf(op.operands[0]) ?? '');
          if (!isDict(font) || nameOf(cos.get(font, 'Subtype')) !== 'Type3') break;
          this.drawn.add(font);
          const own = font.get('Resources') ?? op.resources;
          for (const glyph of cos.dict(font, 'CharProcs')?.values() ?? [])
            this.enqueue(cos.resolve(glyph), own);
          break;
        }
        case 'scn':
        case 'SCN': {
          const name = nameOf(op.operands[op.operands.length - 1]);
          const pattern = name === undefined ? undefined : cos.get(cos.dict(op.resources, 'Pattern'), name);
          if (isStream(pattern)) this.enqueue(pattern, op.resources);
          // a shading pattern paints in its own graphics state
          const gs = isDict(pattern) ? cos.get(pattern, 'ExtGState') : undefined;
          if (isDict(gs)) this.drawn.add(gs);
          break;
        }
        case 'Tr': {
          const mode = op.operands[0];
          if (typeof mode === 'number') state = { ...state, textMode: mode };
          break;
        }
        case 'ri': {
          const name = nameOf(op.operands[0]);
          if (name !== undefined && this.out.wants('rendering_intent'))
            this.out.emit('rendering_intent', {
              where: `ri operator in ${op.where}`,
              objectNumber: undefined,
              drawn: true,
              name,
              source: 'ri operator',
            });
          break;
        }
        case 'BI':
          if (op.inlineImage) this.inlineImage(op.inlineImage, op.where);
          break;
      }
      if ((PAINT_FILL.has(op.op) && fills(state)) || (PAINT_STROKE.has(op.op) && strokes(state)))
        this.usesTransparency = true;
      if (PAINT_BOTH.has(op.op) && (fills(state) || strokes(state))) this.usesTransparency = true;
      if (
        SHOW_TEXT.has(op.op) &&
        ((TEXT_FILLS.has(state.textMode) && fills(state)) ||
          (TEXT_STROKES.has(state.textMode) && strokes(state)))
      )
        this.usesTransparency = true;
    }
  }

  private rawXObject(resources: PdfDict | undefined, name: PdfValue | undefined): PdfValue | undefined {
    return this.cos.dict(resources, 'XObject')?.get(nameOf(name) ?? '');
  }

  /** The transparency a graphics state puts in force; its soft mask's group is content drawn too. */
  private applyState(state: PaintState, gs: PdfDict, resources: PdfDict | undefined): PaintState {
    const cos = this.cos;
    const next = { ...state };
    const smask = cos.get(gs, 'SMask');
    if (smask !== undefined && smask !== null) next.mask = nameOf(smask) !== 'None';
    if (isDict(smask)) this.enqueue(cos.get(smask, 'G'), resources);
    const blend = cos.get(gs, 'BM');
    if (blend !== undefined && blend !== null) {
      const modes = Array.isArray(blend) ? blend.map((b) => nameOf(cos.resolve(b))) : [nameOf(blend)];
      next.blend = modes.some((m) => m !== 'Normal' && m !== 'Compatible');
    }
    const ca = numberOf(cos.get(gs, 'ca'));
    const CA = numberOf(cos.get(gs, 'CA'));
    if (ca !== undefined) next.fillAlpha = ca < OPAQUE;
    if (CA !== undefined) next.strokeAlpha = CA < OPAQUE;
    return next;
  }

  /** An image drawn draws its soft mask, its mask and its alternates with it. */
  private markImageParts(dict: PdfDict): void {
    const cos = this.cos;
    for (const key of ['SMask', 'Mask']) {
      const part = cos.get(dict, key);
      if (isStream(part)) this.drawn.add(part.stream.dict);
    }
    for (const alternate of cos.array(dict, 'Alternates')) {
      const entry = cos.resolve(alternate);
      const image = isDict(entry) ? cos.get(entry, 'Image') : undefined;
      if (isStream(image)) this.drawn.add(image.stream.dict);
    }
  }

  private inlineImage(dict: PdfDict, where: string): void {
    const cos = this.cos;
    const intent = nameOf(dict.get('Intent'));
    const node: ImageNode = {
      where: `inline image in ${where}`,
      objectNumber: undefined,
      drawn: true,
      inline: true,
      role: 'image',
      imageMask: inlineEntry(dict, 'ImageMask', 'IM') === true,
      hasAlternates: false,
      hasOpi: false,
      interpolate: booleanOf(inlineEntry(dict, 'Interpolate', 'I')),
      bitsPerComponent: numberOf(inlineEntry(dict, 'BitsPerComponent', 'BPC')),
      intent,
      filters: filterNames(cos, inlineEntry(dict, 'Filter', 'F')),
      hasColorSpace: inlineEntry(dict, 'ColorSpace', 'CS') !== undefined,
      hasSMask: false,
    };
    if (this.out.wants('image')) this.out.emit('image', node);
    if (intent !== undefined && this.out.wants('rendering_intent'))
      this.out.emit('rendering_intent', {
        where: node.where,
        objectNumber: undefined,
        drawn: true,
        name: intent,
        source: 'inline image',
      });
  }

  /** Every graphics object the page's resources hold, and its annotations' appearances. */
  readResources(): void {
    this.resources(this.source.resources, 0);
    // the own resources of the streams the content reached: glyph procedures, patterns, soft masks' groups
    for (const { stream } of this.queue.slice(0, MAX_EXTRA_STREAMS))
      this.resources(stream.stream.dict.get('Resources'), 1);
    for (const annotation of this.cos.array(this.source.page, 'Annots')) {
      const dict = this.cos.resolve(annotation);
      if (!isDict(dict)) continue;
      for (const appearance of this.appearanceStreams(dict)) this.xobject(appearance, undefined, 1);
    }
    const group = this.cos.dict(this.source.page, 'Group');
    if (group) this.group(group, 'page', undefined, true);
  }

  /** First sight of `value` (by identity); false past the page's budget. */
  private first(value: object): boolean {
    if (this.emitted.has(value) || this.nodes++ > MAX_NODES) return false;
    this.emitted.add(value);
    return true;
  }

  private resources(value: PdfValue | undefined, depth: number): void {
    const cos = this.cos;
    const resources = cos.resolve(value);
    if (!isDict(resources) || depth > MAX_DEPTH || !this.first(resources)) return;
    for (const [name, raw] of cos.dict(resources, 'ExtGState') ?? []) {
      const gs = cos.resolve(raw);
      if (isDict(gs)) this.graphicsState(gs, refNum(raw), depth, `graphics state /${name}`);
    }
    for (const [name, raw] of cos.dict(resources, 'XObject') ?? [])
      this.xobject(cos.resolve(raw), refNum(raw), depth, undefined, name);
    for (const [name, raw] of cos.dict(resources, 'Pattern') ?? []) {
      const pattern = cos.resolve(raw);
      if (isStream(pattern)) this.resources(pattern.stream.dict.get('Resources'), depth + 1);
      // a shading pattern's own graphics state
      const rawState = isDict(pattern) ? pattern.get('ExtGState') : undefined;
      const gs = cos.resolve(rawState);
      if (isDict(gs)) this.graphicsState(gs, refNum(rawState), depth, `graphics state of pattern /${name}`);
    }
    for (const raw of cos.dict(resources, 'Font')?.values() ?? []) {
      const font = cos.resolve(raw);
      if (isDict(font) && nameOf(cos.get(font, 'Subtype')) === 'Type3')
        this.resources(font.get('Resources'), depth + 1);
    }
  }

  private xobject(
    value: PdfValue | undefined,
    num: number | undefined,
    depth: number,
    role?: ImageNode['role'],
    name?: string,
  ): void {
    const cos = this.cos;
    if (!isStream(value) || depth > MAX_DEPTH) return;
    const dict = value.stream.dict;
    if (!this.first(dict)) return;
    const drawn = this.drawn.has(dict);
    const subtype = nameOf(cos.get(dict, 'Subtype'));
    const what =
      role && role !== 'image'
        ? role
        : subtype === 'Image'
          ? 'image'
          : subtype === 'Form'
            ? 'form XObject'
            : 'XObject';
    const where = this.label(num, name === undefined ? what : `${what} /${name}`);
    if (this.out.wants('xobject'))
      this.out.emit('xobject', {
        where,
        objectNumber: num,
        drawn,
        subtype,
        hasOpi: this.has(dict, 'OPI'),
        hasSMask: this.has(dict, 'SMask'),
      });
    if (subtype === 'Image' || role !== undefined)
      this.image(value, num, where, drawn, role ?? 'image', depth);
    else if (subtype === 'Form') {
      if (this.out.wants('form')) {
        const structParents = cos.get(dict, 'StructParents');
        const keyed = typeof structParents === 'number' && Number.isInteger(structParents);
        const timesDrawn = this.timesDrawn(dict);
        this.out.emit('form', {
          where,
          objectNumber: num,
          drawn,
          hasPs: this.has(dict, 'PS'),
          subtype2: nameOf(cos.get(dict, 'Subtype2')),
          hasOpi: this.has(dict, 'OPI'),
          hasRef: this.has(dict, 'Ref'),
          structParents: keyed ? structParents : undefined,
          timesDrawn,
          pagesDrawnOn: keyed
            ? pagesDrawing(cos, dict, timesDrawn > 0 ? this.source.pageNumber : undefined)
            : 0,
        });
      }
      const group = cos.dict(dict, 'Group');
      if (group) this.group(group, 'form', num, drawn);
      this.resources(dict.get('Resources'), depth + 1);
    }
  }

  private image(
    value: { stream: { dict: PdfDict; dataStart: number } },
    num: number | undefined,
    where: string,
    drawn: boolean,
    role: ImageNode['role'],
    depth: number,
  ): void {
    const cos = this.cos;
    const dict = value.stream.dict;
    const filters = filterNames(cos, cos.get(dict, 'Filter'));
    const intent = nameOf(cos.get(dict, 'Intent'));
    if (this.out.wants('image'))
      this.out.emit('image', {
        where,
        objectNumber: num,
        drawn,
        inline: false,
        role,
        imageMask: cos.get(dict, 'ImageMask') === true,
        hasAlternates: this.has(dict, 'Alternates'),
        hasOpi: this.has(dict, 'OPI'),
        interpolate: booleanOf(cos.get(dict, 'Interpolate')),
        bitsPerComponent: numberOf(cos.get(dict, 'BitsPerComponent')),
        intent,
        filters,
        hasColorSpace: this.has(dict, 'ColorSpace'),
        hasSMask: this.has(dict, 'SMask'),
      });
    if (intent !== undefined && this.out.wants('rendering_intent'))
      this.out.emit('rendering_intent', { where, objectNumber: num, drawn, name: intent, source: 'image' });
    if (filters.includes('JPXDecode') && this.out.wants('jpeg2000')) {
      const length = numberOf(cos.get(dict, 'Length')) ?? JPX_HEADER_BYTES;
      const head = cos.read(value.stream.dataStart, Math.min(length, JPX_HEADER_BYTES));
      this.out.emit('jpeg2000', {
        where,
        objectNumber: num,
        drawn,
        hasColorSpace: this.has(dict, 'ColorSpace'),
        ...jpeg2000Header(head),
      });
    }
    for (const [key, part] of [
      ['SMask', 'soft mask'],
      ['Mask', 'mask'],
    ] as const) {
      const raw = dict.get(key);
      this.xobject(cos.resolve(raw), refNum(raw), depth + 1, part);
    }
    for (const alternate of cos.array(dict, 'Alternates')) {
      const entry = cos.resolve(alternate);
      const raw = isDict(entry) ? entry.get('Image') : undefined;
      this.xobject(cos.resolve(raw), refNum(raw), depth + 1, 'alternate');
    }
  }

  private graphicsState(gs: PdfDict, num: number | undefined, depth: number, what: string): void {
    const cos = this.cos;
    if (!this.first(gs)) return;
    const drawn = this.drawn.has(gs);
    const where = this.label(num, what);
    const blend = this.has(gs, 'BM') ? cos.get(gs, 'BM') : undefined;
    const modes = (
      Array.isArray(blend) ? blend.map((b) => cos.resolve(b)) : blend === undefined ? [] : [blend]
    ).map(nameOf);
    const blendModes = modes.filter((m): m is string => m !== undefined);
    const smask = this.has(gs, 'SMask') ? cos.get(gs, 'SMask') : undefined;
    const tr2 = this.has(gs, 'TR2') ? cos.get(gs, 'TR2') : undefined;
    if (this.out.wants('graphics_state'))
      this.out.emit('graphics_state', {
        where,
        objectNumber: num,
        drawn,
        hasTR: this.has(gs, 'TR'),
        tr2: tr2 === undefined ? undefined : (nameOf(tr2) ?? ''),
        hasHTP: this.has(gs, 'HTP'),
        softMask: smask === undefined ? undefined : (nameOf(smask) ?? ''),
        blendModes,
        blendModeUnreadable: blend !== undefined && (modes.length === 0 || blendModes.length < modes.length),
        hasBM: blend !== undefined && blend !== null,
        blendModeName: nameOf(blend),
        strokeAlpha: writtenNumber(cos.get(gs, 'CA')),
        fillAlpha: writtenNumber(cos.get(gs, 'ca')),
      });
    const firstMode = blendModes[0];
    if (firstMode !== undefined && this.out.wants('blend_mode'))
      this.out.emit('blend_mode', { where, objectNumber: num, drawn, name: firstMode });
    const intent = nameOf(cos.get(gs, 'RI'));
    if (intent !== undefined && this.out.wants('rendering_intent'))
      this.out.emit('rendering_intent', {
        where,
        objectNumber: num,
        drawn,
        name: intent,
        source: 'graphics state',
      });
    const ht = gs.get('HT');
    this.halftone(cos.resolve(ht), refNum(ht), drawn, undefined);
    if (isDict(smask)) {
      const group = smask.get('G');
      this.xobject(cos.resolve(group), refNum(group), depth + 1);
    }
  }

  private halftone(
    value: PdfValue | undefined,
    num: number | undefined,
    drawn: boolean,
    colorant: string | undefined,
  ): void {
    const cos = this.cos;
    const dict = isStream(value) ? value.stream.dict : isDict(value) ? value : undefined;
    if (!dict || !this.first(dict) || !this.out.wants('halftone')) return;
    const halftoneType = numberOf(cos.get(dict, 'HalftoneType'));
    this.out.emit('halftone', {
      where: this.label(num, colorant === undefined ? 'halftone' : `halftone of ${colorant}`),
      objectNumber: num,
      drawn,
      halftoneType,
      hasHalftoneName: this.has(dict, 'HalftoneName'),
      hasTransferFunction: this.has(dict, 'TransferFunction'),
      colorant,
    });
    if (halftoneType !== 5) return;
    for (const [key, raw] of dict) {
      if (key === 'Type' || key === 'HalftoneType' || key === 'HalftoneName') continue;
      const component = cos.resolve(raw);
      if (isDict(component) || isStream(component)) this.halftone(component, refNum(raw), drawn, key);
    }
  }

  private group(group: PdfDict, owner: GroupNode['owner'], num: number | undefined, drawn: boolean): void {
    if (!this.out.wants('group')) return;
    const cos = this.cos;
    this.out.emit('group', {
      where:
        owner === 'page'
          ? `the group of page ${this.source.pageNumber}`
          : `the group of ${this.label(num, 'form XObject')}`,
      objectNumber: num,
      drawn,
      owner,
      subtype: nameOf(cos.get(group, 'S')),
      hasColorSpace: group.has('CS'),
    });
  }
}

const booleanOf = (value: PdfValue | undefined) => (typeof value === 'boolean' ? value : undefined);

/** The pages of each file known to draw a form with StructParents, by the form's dictionary. */
const drawingPages = new WeakMap<CosFile, WeakMap<PdfDict, Set<number>>>();

/**
 * How many pages read so far draw `form`, with `pageNumber` (when this page draws it). A page read again
 * counts once: the count is of pages, not of readings.
 */
function pagesDrawing(cos: CosFile, form: PdfDict, pageNumber: number | undefined): number {
  let forms = drawingPages.get(cos);
  if (!forms) drawingPages.set(cos, (forms = new WeakMap()));
  let pages = forms.get(form);
  if (!pages) forms.set(form, (pages = new Set()));
  if (pageNumber !== undefined) pages.add(pageNumber);
  return pages.size;
}

/** The catalog names a GTS_PDFA1 output intent with a destination profile. */
function pdfaOutputIntent(cos: CosFile): boolean {
  return cos.array(cos.catalog, 'OutputIntents').some((raw) => {
    const intent = cos.resolve(raw);
    return (
      isDict(intent) &&
      nameOf(cos.get(intent, 'S')) === 'GTS_PDFA1' &&
      isStream(cos.get(intent, 'DestOutputProfile'))
    );
  });
}

const CONTENT_KINDS = [
  'image',
  'xobject',
  'form',
  'graphics_state',
  'blend_mode',
  'halftone',
  'rendering_intent',
  'group',
  'jpeg2000',
  'page_transparency',
] as const;

export const graphicsBuilders: Builders<GraphicsKinds> = {
  page: (source, out) => {
    if (!CONTENT_KINDS.some((kind) => out.wants(kind))) return;
    const page = new PageGraphics(source, out);
    page.readContent();
    page.readResources();
    if (out.wants('page_transparency')) {
      const group = source.cos.dict(source.page, 'Group');
      out.emit('page_transparency', {
        where: `page ${source.pageNumber}`,
        usesTransparency: page.usesTransparency,
        groupHasColorSpace: group?.has('CS') ?? false,
        pdfaOutputIntent: pdfaOutputIntent(source.cos),
      });
    }
  },
};
