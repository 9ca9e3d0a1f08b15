import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, PdfName, type PdfValue } from '../../cos/syntax.js';
import type { Emitter, ModelNode, PageSource } from '../node.js';
import { type Operation, pageOperations } from '../operations.js';
import { type IccProfileNode, outputIntents } from './intents.js';
import { type SeparationNode, separationCanon } from './separations.js';
import {
  DEFAULT_SPACE,
  DEVICE_NAMES,
  type DeviceSpace,
  familyOf,
  iccHeader,
  namedSpace,
  refNumber,
} from './spaces.js';

/** What paints with a colour space. */
export type ColorUse = 'fill' | 'stroke' | 'image' | 'inline image' | 'shading' | 'transparency group';

/** A device colour space painted with (or reached as the base or alternate of a space painted with). */
export interface DeviceColorNode extends ModelNode {
  space: DeviceSpace;
  use: ColorUse;
  /** The family that reaches it (`Indexed`, `Separation`, `DeviceN`, `Pattern`), undefined when used itself. */
  via: string | undefined;
  /** The `DefaultGray`/`DefaultRGB`/`DefaultCMYK` of the resources in force, which replaces it; or undefined. */
  replacedBy: string | undefined;
  /** The file has a PDF/A (`GTS_PDFA1`) output intent. */
  pdfaOutputIntent: boolean;
  /** The colour space of the first one's profile (`RGB`, `CMYK`, `GRAY`); null when none, or unreadable. */
  pdfaOutputColorSpace: string | null;
}

/** A DeviceN (or NChannel) colour space painted with. */
export interface DeviceNNode extends ModelNode {
  /** The colorant names, in order. */
  colorants: string[];
  /** The family of its alternate space (`DeviceCMYK`, `ICCBased`, ...). */
  alternate: string | undefined;
  /** /Subtype of its attributes: `NChannel` or `DeviceN` (its default). */
  subtype: string;
  /** The names of its attributes' /Colorants dictionary; undefined when there is none. */
  colorantsEntries: string[] | undefined;
  /** The names of its attributes' /Process /Components; empty when there is none. */
  processComponents: string[];
}

/** An ICCBased CMYK colour space painted with, with the overprint state in force. */
export interface IccCmykPaintNode extends ModelNode {
  use: 'fill' | 'stroke';
  /** The overprint flag for this use: `op` for fill, `OP` for stroke. */
  overprint: boolean;
  /** The overprint mode, `OPM`. */
  overprintMode: number;
}

/** A content stream operator ISO 32000-1 (Annex A) does not define. */
export interface UndefinedOperatorNode extends ModelNode {
  operator: string;
  /** Inside a `BX` ... `EX` compatibility section. */
  inCompatibilitySection: boolean;
}

/** A content stream other than a page's: a form XObject's, a tiling pattern's, a Type 3 glyph's. */
export interface ContentStreamNode extends ModelNode {
  /** The stream's own /Resources (a Type 3 glyph's: its font's). */
  ownResources: boolean;
  /** The resources it names that are found only in the resources of what draws it, as `Font F1`. */
  inheritedResourceNames: string[];
}

/** The colour kinds a page's content is read for (`ColorKinds` adds the document's output intents). */
export interface PageColorKinds {
  iccProfile: IccProfileNode;
  deviceColor: DeviceColorNode;
  deviceN: DeviceNNode;
  separation: SeparationNode;
  iccCmykPaint: IccCmykPaintNode;
  undefinedOperator: UndefinedOperatorNode;
  contentStream: ContentStreamNode;
}

/** The ISO 32000-1 Annex A operators (PDF Reference 1.4 Appendix A has the same). */
const DEFINED_OPERATORS = new Set([
  ...'b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID j J K k l m M'.split(
    ' ',
  ),
  ...'MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y'.split(' '),
  "'",
  '"',
]);
const FILL_PAINT = new Set(['f', 'F', 'f*']);
const STROKE_PAINT = new Set(['S', 's']);
const BOTH_PAINT = new Set(['B', 'B*', 'b', 'b*']);
const TEXT_SHOW = new Set(['Tj', 'TJ', "'", '"']);
const MAX_SUB_STREAMS = 1000;
const MAX_GLYPHS_PER_FONT = 512;
const MAX_SPACE_DEPTH = 6;
const MAX_NESTED_SOURCES = 4;

interface SpaceInForce {
  space: PdfValue | undefined;
  /** The resources the space was set under: its name and the Default spaces are looked up there. */
  resources: PdfDict | undefined;
}

interface GraphicsState {
  fill: SpaceInForce;
  stroke: SpaceInForce;
  fillOverprint: boolean;
  strokeOverprint: boolean;
  overprintMode: number;
  font: PdfValue | undefined;
  /** `Tr`: 0 fill, 1 stroke, 2 both, 3 neither, 4 to 7 the same and clip. */
  textMode: number;
}

const GRAY = new PdfName('DeviceGray');
const RGB = new PdfName('DeviceRGB');
const CMYK = new PdfName('DeviceCMYK');
const OPERATOR_SPACE: Readonly<Record<string, PdfName>> = {
  g: GRAY,
  G: GRAY,
  rg: RGB,
  RG: RGB,
  k: CMYK,
  K: CMYK,
};

const initialState = (resources: PdfDict | undefined): GraphicsState => ({
  fill: { space: GRAY, resources },
  stroke: { space: GRAY, resources },
  fillOverprint: false,
  strokeOverprint: false,
  overprintMode: 0,
  font: undefined,
  textMode: 0,
});

/** A content stream read besides the page's own: where it is, and how its colour counts. */
interface StreamContext {
  /** `where` of its operations outside any form it draws; undefined for the page's own content. */
  prefix: string | undefined;
  /** Colour operators ignored (an uncoloured pattern's cell, a `d1` glyph): only its operators count. */
  colorIgnored: boolean;
  /** Its resources are its drawer's, since it has none of its own. */
  inherits: boolean;
  nesting: number;
}

/** The page's colour, read from its content, the forms and patterns it paints, Type 3 glyphs and appearances. */
export class PageColor {
  private readonly cos: CosFile;
  private readonly pdfa: { colorSpace: string | null } | undefined;
  private readonly emitted = new Set<string>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private readonly subStreams = new Set<unknown>();
  private readonly contentStreams = new Map<string, ContentStreamNode>();
  private readonly formsSeen = new Set<number>();
  private readonly wantsColor: boolean;
  private readonly wantsOperators: boolean;
  private readonly wantsStreams: boolean;

  constructor(
    private readonly source: PageSource,
    private readonly out: Emitter<PageColorKinds>,
  ) {
    this.cos = source.cos;
    this.pdfa = outputIntents(this.cos).pdfa;
    this.wantsColor = ['deviceColor', 'iccProfile', 'deviceN', 'separation', 'iccCmykPaint'].some((k) =>
      out.wants(k as keyof PageColorKinds),
    );
    this.wantsOperators = out.wants('undefinedOperator');
    this.wantsStreams = out.wants('contentStream');
  }

  run(): void {
    const { cos, source } = this;
    const resources = cos.resolve(source.resources);
    const pageResources = isDict(resources) ? resources : undefined;
    const page = { prefix: undefined, colorIgnored: false, inherits: false, nesting: 0 };
    this.stream(pageOperations(source), page, initialState(pageResources));
    if (this.wantsColor) this.group(source.page, pageResources, `page ${source.pageNumber}`);
    this.appearances(pageResources);
    for (const node of this.contentStreams.values()) this.out.emit('contentStream', node);
  }

  private id(value: object): number {
    const known = this.ids.get(value);
    if (known !== undefined) return known;
    const id = this.nextId++;
    this.ids.set(value, id);
    return id;
  }

  private once(key: string): boolean {
    if (this.emitted.has(key)) return false;
    this.emitted.add(key);
    return true;
  }

  /** The appearances of the page's annotations: content streams of their own, from the initial state. */
  private appearances(pageResources: PdfDict | undefined): void {
    const { cos, source } = this;
    for (const raw of cos.array(source.page, 'Annots')) {
      const annotation = cos.resolve(raw);
      const appearance = isDict(annotation) ? cos.dict(annotation, 'AP') : undefined;
      const label = refNumber(raw) !== undefined ? `annotation ${refNumber(raw)}` : 'an annotation';
      // the normal, rollover and down appearances, each a stream or a stream per state
      const streams = ['N', 'R', 'D'].flatMap((key) => {
        const entry = cos.get(appearance, key);
        return isStream(entry)
          ? [entry]
          : isDict(entry)
            ? [...entry.values()].map((v) => cos.resolve(v))
            : [];
      });
      for (const stream of streams) {
        if (!isStream(stream)) continue;
        // an appearance without resources of its own is read with the page's, as a viewer would
        const own = cos.dict(stream.stream.dict, 'Resources');
        this.subStream(stream, own ?? pageResources, {
          prefix: `page ${source.pageNumber}, ${label}'s appearance`,
          colorIgnored: false,
          inherits: own === undefined,
          nesting: 1,
        });
      }
    }
  }

  /** Another content stream read as the page's is, with its own initial state unless `state` is given. */
  private subStream(
    stream: PdfValue,
    resources: PdfDict | undefined,
    context: StreamContext,
    state?: GraphicsState,
  ): void {
    if (context.nesting > MAX_NESTED_SOURCES || this.subStreams.size >= MAX_SUB_STREAMS) return;
    if (typeof stream !== 'object' || stream === null || this.subStreams.has(stream)) return;
    this.subStreams.add(stream);
    const contents: PdfDict = new Map([['Contents', stream]]);
    const operations = pageOperations({
      cos: this.cos,
      page: contents,
      pageNumber: this.source.pageNumber,
      resources: resources,
    });
    this.stream(operations, context, state ?? initialState(resources));
  }

  private where(op: Operation, context: StreamContext): string {
    if (context.prefix === undefined) return op.where;
    return op.form !== undefined ? `${context.prefix}, form XObject ${op.form}` : context.prefix;
  }

  /** One stream's operations, the forms it draws in place: each form starts from the state its `Do` saw. */
  private stream(operations: readonly Operation[], context: StreamContext, start: GraphicsState): void {
    const frames: { form: number | undefined; entry: GraphicsState; saved: GraphicsState[] }[] = [
      { form: undefined, entry: start, saved: [] },
    ];
    let state = { ...start };
    let compatibility = 0;
    for (const op of operations) {
      let top = frames[frames.length - 1]!;
      if (op.form !== top.form) {
        const back = frames.findIndex((f) => f.form === op.form);
        if (back >= 0) {
          state = { ...frames[back + 1]!.entry };
          frames.length = back + 1;
        } else {
          frames.push({ form: op.form, entry: { ...state }, saved: [] });
          if (op.form !== undefined) this.formEntered(op.form, op, context);
        }
        top = frames[frames.length - 1]!;
      }
      const where = this.where(op, context);
      if (op.op === 'BX') compatibility++;
      else if (op.op === 'EX') compatibility = Math.max(0, compatibility - 1);
      if (this.wantsOperators && !DEFINED_OPERATORS.has(op.op) && this.once(`op|${where}|${op.op}`))
        this.out.emit('undefinedOperator', {
          where,
          operator: op.op.slice(0, 64),
          inCompatibilitySection: compatibility > 0,
        });
      if (this.wantsStreams) this.resourceNames(op, where, context);
      state = this.operate(op, state, top.saved, where, context);
    }
  }

  /** A form drawn for the first time on this page: its transparency group's colour space is used. */
  private formEntered(form: number, op: Operation, context: StreamContext): void {
    if (this.formsSeen.has(form) || !this.wantsColor || context.colorIgnored) return;
    this.formsSeen.add(form);
    const xobject = this.cos.object(form);
    if (isStream(xobject)) this.group(xobject.stream.dict, op.resources, this.where(op, context));
  }

  private group(owner: PdfDict, resources: PdfDict | undefined, where: string): void {
    const group = this.cos.dict(owner, 'Group');
    if (nameOf(this.cos.get(group, 'S')) !== 'Transparency') return;
    const space = group?.get('CS');
    if (space !== undefined) this.space(space, { resources, use: 'transparency group', where });
  }

  /** The resources an operation names that its stream finds only in its drawer's (ISO 32000-1, 7.8.3). */
  private resourceNames(op: Operation, where: string, context: StreamContext): void {
    if (op.form === undefined && !context.inherits) return;
    let own = !context.inherits;
    if (op.form !== undefined) {
      const form = this.cos.object(op.form);
      own = isStream(form) && form.stream.dict.has('Resources');
    }
    const node = this.contentStreams.get(where) ?? { where, ownResources: own, inheritedResourceNames: [] };
    this.contentStreams.set(where, node);
    if (own) return;
    const named = resourceNamed(op);
    if (named === undefined || node.inheritedResourceNames.length >= 20) return;
    const [category, name] = named;
    const text = `${category} ${name}`;
    if (this.cos.dict(op.resources, category)?.has(name) && !node.inheritedResourceNames.includes(text))
      node.inheritedResourceNames.push(text);
  }

  /** The state after one operation, painting what it paints. */
  private operate(
    op: Operation,
    state: GraphicsState,
    saved: GraphicsState[],
    where: string,
    context: StreamContext,
  ): GraphicsState {
    const { cos } = this;
    switch (op.op) {
      case 'q':
        saved.push(state);
        return { ...state };
      case 'Q':
        return saved.pop() ?? state;
      case 'g':
      case 'rg':
      case 'k':
        return { ...state, fill: this.setSpace(OPERATOR_SPACE[op.op], 'fill', op, where, context) };
      case 'G':
      case 'RG':
      case 'K':
        return { ...state, stroke: this.setSpace(OPERATOR_SPACE[op.op], 'stroke', op, where, context) };
      case 'cs':
        return {
          ...state,
          fill: this.setSpace(namedSpace(cos, op.operands[0], op.resources), 'fill', op, where, context),
        };
      case 'CS':
        return {
          ...state,
          stroke: this.setSpace(namedSpace(cos, op.operands[0], op.resources), 'stroke', op, where, context),
        };
      case 'gs':
        return this.graphicsState(op, state);
      case 'Tr': {
        const mode = op.operands[0];
        return typeof mode === 'number' && Number.isInteger(mode) ? { ...state, textMode: mode } : state;
      }
      case 'Tf':
        return { ...state, font: cos.dict(op.resources, 'Font')?.get(nameOf(op.operands[0]) ?? '') };
      default:
    }
    if (context.colorIgnored || !this.wantsColor) return state;
    if (FILL_PAINT.has(op.op)) this.paint(state, 'fill', where);
    else if (STROKE_PAINT.has(op.op)) this.paint(state, 'stroke', where);
    else if (BOTH_PAINT.has(op.op)) {
      this.paint(state, 'fill', where);
      this.paint(state, 'stroke', where);
    } else if (TEXT_SHOW.has(op.op)) {
      const mode = state.textMode & 3;
      if (mode === 0 || mode === 2) this.paint(state, 'fill', where);
      if (mode === 1 || mode === 2) this.paint(state, 'stroke', where);
      this.type3(state, op, context);
    } else if (op.op === 'sc' || op.op === 'scn' || op.op === 'SC' || op.op === 'SCN') {
      const name = nameOf(op.operands[op.operands.length - 1]);
      if (name !== undefined) this.pattern(name, op, where, context, state);
    } else if (op.op === 'sh') {
      const shading = shadingDict(cos, cos.dict(op.resources, 'Shading')?.get(nameOf(op.operands[0]) ?? ''));
      this.space(shading?.get('ColorSpace'), {
        resources: op.resources,
        use: 'shading',
        where,
        overprint: state.fillOverprint,
        overprintMode: state.overprintMode,
      });
    } else if (op.op === 'Do') this.xobject(op, state, where);
    else if (op.op === 'BI' && op.inlineImage) {
      const image = op.inlineImage;
      if ((image.get('IM') ?? image.get('ImageMask')) === true) this.paint(state, 'fill', where);
      else
        this.space(namedSpace(cos, image.get('CS') ?? image.get('ColorSpace'), op.resources), {
          resources: op.resources,
          use: 'inline image',
          where,
          overprint: state.fillOverprint,
          overprintMode: state.overprintMode,
        });
    }
    return state;
  }

  /** A colour set is a colour used, whether or not this stream then paints with it. */
  private setSpace(
    space: PdfValue | undefined,
    which: 'fill' | 'stroke',
    op: Operation,
    where: string,
    context: StreamContext,
  ): SpaceInForce {
    if (!context.colorIgnored && this.wantsColor)
      this.space(space, { resources: op.resources, use: which, where });
    return { space, resources: op.resources };
  }

  /** Painting with the fill or the stroke colour in force. */
  private paint(state: GraphicsState, which: 'fill' | 'stroke', where: string): void {
    this.space(state[which].space, {
      resources: state[which].resources,
      use: which,
      where,
      overprint: which === 'fill' ? state.fillOverprint : state.strokeOverprint,
      overprintMode: state.overprintMode,
    });
  }

  private graphicsState(op: Operation, state: GraphicsState): GraphicsState {
    const { cos } = this;
    const dict = cos.dict(cos.dict(op.resources, 'ExtGState'), nameOf(op.operands[0]) ?? '');
    if (!dict) return state;
    const next = { ...state };
    const stroke = cos.get(dict, 'OP');
    const fill = cos.get(dict, 'op');
    const mode = cos.get(dict, 'OPM');
    if (typeof stroke === 'boolean') {
      next.strokeOverprint = stroke;
      // /op defaults to /OP's value (ISO 32000-1, Table 58)
      if (fill === undefined) next.fillOverprint = stroke;
    }
    if (typeof fill === 'boolean') next.fillOverprint = fill;
    if (typeof mode === 'number') next.overprintMode = mode;
    return next;
  }

  private xobject(op: Operation, state: GraphicsState, where: string): void {
    const { cos } = this;
    const xobject = cos.resolve(cos.dict(op.resources, 'XObject')?.get(nameOf(op.operands[0]) ?? ''));
    if (!isStream(xobject)) return;
    const dict = xobject.stream.dict;
    if (nameOf(cos.get(dict, 'Subtype')) !== 'Image') return;
    if (cos.get(dict, 'ImageMask') === true) this.paint(state, 'fill', where);
    else
      this.space(dict.get('ColorSpace'), {
        resources: op.resources,
        use: 'image',
        where,
        overprint: state.fillOverprint,
        overprintMode: state.overprintMode,
      });
  }

  /** A pattern selected as a colour: a shading pattern's shading, a tiling pattern's cell. */
  private pattern(
    name: string,
    op: Operation,
    where: string,
    context: StreamContext,
    state: GraphicsState,
  ): void {
    const { cos } = this;
    const raw = cos.dict(op.resources, 'Pattern')?.get(name);
    const pattern = cos.resolve(raw);
    if (isStream(pattern)) {
      const dict = pattern.stream.dict;
      const own = cos.dict(dict, 'Resources');
      const label = refNumber(raw) !== undefined ? `pattern ${refNumber(raw)}` : `pattern ${name}`;
      this.subStream(pattern, own ?? op.resources, {
        prefix: `${where}, ${label}`,
        // an uncoloured pattern's cell takes its colour from where it is painted (ISO 32000-1, 8.7.3.3)
        colorIgnored: cos.get(dict, 'PaintType') !== 1,
        inherits: own === undefined,
        nesting: context.nesting + 1,
      });
    } else if (isDict(pattern)) {
      const shading = shadingDict(cos, pattern.get('Shading'));
      this.space(shading?.get('ColorSpace'), {
        resources: op.resources,
        use: 'shading',
        where,
        overprint: state.fillOverprint,
        overprintMode: state.overprintMode,
      });
    }
  }

  /** A Type 3 font's glyphs, read at its first show: a `d0` glyph's colour is its own, a `d1` glyph's is not. */
  private type3(state: GraphicsState, op: Operation, context: StreamContext): void {
    const { cos } = this;
    const font = cos.resolve(state.font);
    if (!isDict(font) || nameOf(cos.get(font, 'Subtype')) !== 'Type3' || this.subStreams.has(font)) return;
    this.subStreams.add(font);
    const own = cos.dict(font, 'Resources');
    const procs = cos.dict(font, 'CharProcs');
    let count = 0;
    for (const [glyph, raw] of procs ?? []) {
      if (count++ >= MAX_GLYPHS_PER_FONT) break;
      const stream = cos.resolve(raw);
      if (!isStream(stream)) continue;
      const label = `${this.where(op, context)}, Type 3 glyph /${glyph}`;
      const glyphContext: StreamContext = {
        prefix: label,
        colorIgnored: false,
        inherits: own === undefined,
        nesting: context.nesting + 1,
      };
      const resources = own ?? op.resources;
      const contents: PdfDict = new Map([['Contents', stream]]);
      const operations = pageOperations({
        cos,
        page: contents,
        pageNumber: this.source.pageNumber,
        resources,
      });
      glyphContext.colorIgnored = operations[0]?.op !== 'd0';
      this.subStreams.add(stream);
      this.stream(operations, glyphContext, {
        ...state,
        fill: { ...state.fill },
        stroke: { ...state.stroke },
      });
    }
  }

  /** A colour space painted with: its device spaces, ICC profiles, DeviceN and Separation spaces. */
  private space(value: PdfValue | undefined, use: SpaceUse, via?: string, depth = 0, defaults = true): void {
    const { cos } = this;
    if (value === undefined || depth > MAX_SPACE_DEPTH) return;
    const resolved = cos.resolve(value);
    const name = nameOf(resolved);
    if (name !== undefined) {
      const device = DEVICE_NAMES[name];
      if (device !== undefined) {
        const defaultName = DEFAULT_SPACE[device];
        const replacement = defaults ? cos.dict(use.resources, 'ColorSpace')?.get(defaultName) : undefined;
        this.device(device, use, via, replacement === undefined ? undefined : defaultName);
        if (replacement !== undefined) this.space(replacement, use, 'Default', depth + 1, false);
        return;
      }
      if (name === 'Pattern') return;
      const named = cos.dict(use.resources, 'ColorSpace')?.get(name);
      if (named !== undefined) this.space(named, use, via, depth + 1, defaults);
      return;
    }
    if (!Array.isArray(resolved)) return;
    const key = `space|${this.id(resolved)}|${use.resources ? this.id(use.resources) : 0}|${use.use}|${use.where}|${via ?? ''}|${String(use.overprint)}|${use.overprintMode ?? 0}`;
    if (!this.once(key)) return;
    switch (familyOf(cos, resolved)) {
      case 'ICCBased':
        this.icc(resolved[1], use, via);
        return;
      case 'Indexed':
        this.space(resolved[1], use, 'Indexed', depth + 1, defaults);
        return;
      case 'Pattern':
        this.space(resolved[1], use, 'Pattern', depth + 1, defaults);
        return;
      case 'Separation':
        this.separation(resolved, use.where);
        this.space(resolved[2], use, 'Separation', depth + 1, defaults);
        return;
      case 'DeviceN':
        this.deviceN(resolved, use.where);
        this.space(resolved[2], use, 'DeviceN', depth + 1, defaults);
        return;
      default:
    }
  }

  private device(space: DeviceSpace, use: SpaceUse, via: string | undefined, replacedBy: string | undefined) {
    if (!this.once(`device|${space}|${use.use}|${use.where}|${via ?? ''}|${replacedBy ?? ''}`)) return;
    this.out.emit('deviceColor', {
      where: use.where,
      space,
      use: use.use,
      via,
      replacedBy,
      pdfaOutputIntent: this.pdfa !== undefined,
      pdfaOutputColorSpace: this.pdfa?.colorSpace ?? null,
    });
  }

  private icc(profile: PdfValue | undefined, use: SpaceUse, via: string | undefined): void {
    const { cos } = this;
    const stream = cos.resolve(profile);
    if (!isStream(stream)) return;
    const n = cos.get(stream.stream.dict, 'N');
    const components = typeof n === 'number' ? n : null;
    const object = refNumber(profile);
    if (this.once(`icc|${this.id(stream)}`) && this.out.wants('iccProfile')) {
      const node: IccProfileNode = {
        where: `${use.where}, ICC profile${object !== undefined ? ` (object ${object})` : ''}`,
        role: 'input',
        object,
        components,
        ...iccHeader(cos, stream),
      };
      this.out.emit('iccProfile', node);
    }
    // ISO 32000-1 8.6.5.5: N is 4 for a CMYK profile, which is what paints through overprint mode
    const direct = via === undefined || via === 'Default';
    // a colour set is judged where it paints, in the overprint state then in force
    if (components !== 4 || !direct || use.overprint === undefined || use.use === 'transparency group')
      return;
    const which = use.use === 'stroke' ? 'stroke' : 'fill';
    const overprint = use.overprint === true;
    const mode = use.overprintMode ?? 0;
    if (this.once(`cmyk|${use.where}|${which}|${overprint}|${mode}`))
      this.out.emit('iccCmykPaint', { where: use.where, use: which, overprint, overprintMode: mode });
  }

  private deviceN(space: PdfValue[], where: string): void {
    const { cos } = this;
    if (!this.once(`deviceN|${this.id(space)}|${where}`)) return;
    const names = cos.resolve(space[1]);
    const colorants = Array.isArray(names) ? names.map((n) => nameOf(cos.resolve(n)) ?? '') : [];
    const attributes = cos.resolve(space[4]);
    const attributesDict = isDict(attributes) ? attributes : undefined;
    const colorantsDict = cos.dict(attributesDict, 'Colorants');
    const process = cos.dict(attributesDict, 'Process');
    this.out.emit('deviceN', {
      where: `${where}, DeviceN colour space`,
      colorants,
      alternate: familyOf(cos, space[2]),
      subtype: nameOf(cos.get(attributesDict, 'Subtype')) ?? 'DeviceN',
      colorantsEntries: colorantsDict ? [...colorantsDict.keys()] : undefined,
      processComponents: cos
        .array(process, 'Components')
        .map((c) => nameOf(cos.resolve(c)) ?? '')
        .filter(Boolean),
    });
    for (const [colorant, separation] of colorantsDict ?? []) {
      const resolved = cos.resolve(separation);
      if (Array.isArray(resolved) && familyOf(cos, resolved) === 'Separation')
        this.separation(resolved, `${where}, DeviceN colorant ${colorant}`);
    }
  }

  private separation(space: PdfValue[], where: string): void {
    if (!this.out.wants('separation') || !this.once(`separation|${this.id(space)}|${where}`)) return;
    const colorant = nameOf(this.cos.resolve(space[1]));
    if (colorant === undefined) return;
    const met = separationCanon(this.cos, colorant, space, `${where}, Separation /${colorant}`);
    this.out.emit('separation', met);
  }
}

/** What a colour space is painted by, and the state it is painted in. */
interface SpaceUse {
  resources: PdfDict | undefined;
  use: ColorUse;
  where: string;
  /** The overprint state where it paints; undefined where it is only set. */
  overprint?: boolean;
  overprintMode?: number;
}

function shadingDict(cos: CosFile, value: PdfValue | undefined): PdfDict | undefined {
  const shading = cos.resolve(value);
  return isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
}

/** The resource category and name an operation refers to, if any. */
function resourceNamed(op: Operation): [string, string] | undefined {
  const first = nameOf(op.operands[0]);
  switch (op.op) {
    case 'Tf':
      return first === undefined ? undefined : ['Font', first];
    case 'Do':
      return first === undefined ? undefined : ['XObject', first];
    case 'gs':
      return first === undefined ? undefined : ['ExtGState', first];
    case 'sh':
      return first === undefined ? undefined : ['Shading', first];
    case 'cs':
    case 'CS':
      return first === undefined || DEVICE_NAMES[first] !== undefined || first === 'Pattern'
        ? undefined
        : ['ColorSpace', first];
    case 'scn':
    case 'SCN': {
      const last = nameOf(op.operands[op.operands.length - 1]);
      return last === undefined ? undefined : ['Pattern', last];
    }
    case 'BDC':
    case 'DP': {
      const properties = nameOf(op.operands[1]);
      return properties === undefined ? undefined : ['Properties', properties];
    }
    case 'BI': {
      const space = nameOf(op.inlineImage?.get('CS') ?? op.inlineImage?.get('ColorSpace'));
      return space === undefined || DEVICE_NAMES[space] !== undefined ? undefined : ['ColorSpace', space];
    }
    default:
      return undefined;
  }
}
