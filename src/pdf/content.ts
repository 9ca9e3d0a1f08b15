import type { CosFile } from './cos/file.js';
import {
  isDict,
  isStream,
  latin1,
  Lexer,
  nameOf,
  textString,
  type PdfDict,
  PdfName,
  PdfRef,
  type PdfValue,
} from './cos/syntax.js';

export type DeviceColor = 'gray' | 'rgb' | 'cmyk';

export interface ContentFacts {
  /** Device colour spaces the page paints with (content, forms, images, shadings, annotation appearances). */
  device_colors: DeviceColor[];
  /** Painting operations of the page's own content outside any marked content with an MCID or an Artifact. */
  untagged_content: number;
  /** Marked content with an MCID (real content) inside an Artifact, in the page's own content. */
  tagged_in_artifacts: number;
}

/** The device colour spaces by the names content (and inline images' abbreviations) give them. */
export const DEVICE: Readonly<Record<string, DeviceColor>> = {
  DeviceGray: 'gray',
  G: 'gray',
  DeviceRGB: 'rgb',
  RGB: 'rgb',
  DeviceCMYK: 'cmyk',
  CMYK: 'cmyk',
};
const DEFAULT_SPACE: Record<DeviceColor, string> = {
  gray: 'DefaultGray',
  rgb: 'DefaultRGB',
  cmyk: 'DefaultCMYK',
};
const OPERATOR_COLOR: Record<string, DeviceColor> = {
  g: 'gray',
  G: 'gray',
  rg: 'rgb',
  RG: 'rgb',
  k: 'cmyk',
  K: 'cmyk',
};
const PAINTING = ['Tj', 'TJ', "'", '"', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'S', 's', 'Do', 'sh', 'BI'];
/** The colours a painting operator paints with: the fill's, the stroke's, or the text rendering mode's. */
const PAINTS_WITH: Record<string, 'fill' | 'stroke' | 'both' | 'text'> = {
  f: 'fill',
  F: 'fill',
  'f*': 'fill',
  B: 'both',
  'B*': 'both',
  b: 'both',
  'b*': 'both',
  S: 'stroke',
  s: 'stroke',
  Tj: 'text',
  TJ: 'text',
  "'": 'text',
  '"': 'text',
};
const STATE_OPERATORS = ['q', 'Q', 'Tr', 'Tf', 'sc', 'scn', 'SC', 'SCN', 'd0', 'd1'];

/** What the scan does at an operator; keyed by its (at most three) bytes, so no string is made per token. */
interface OperatorKind {
  op: string;
  color?: DeviceColor;
  paints: boolean;
  /** the colour it sets is the stroke's (`G`, `RG`, `K`, `CS`, `SC`, `SCN`) */
  stroking: boolean;
}
const operatorKey = (op: string) =>
  (op.charCodeAt(0) << 16) | ((op.charCodeAt(1) || 0) << 8) | (op.charCodeAt(2) || 0);
const OPERATORS = new Map<number, OperatorKind>();
for (const op of [
  ...PAINTING,
  ...Object.keys(OPERATOR_COLOR),
  'cs',
  'CS',
  'BMC',
  'BDC',
  'EMC',
  ...STATE_OPERATORS,
])
  OPERATORS.set(operatorKey(op), {
    op: op === 'CS' ? 'cs' : op === 'SC' || op === 'SCN' || op === 'sc' ? 'scn' : op,
    color: OPERATOR_COLOR[op],
    paints: PAINTING.includes(op),
    stroking: ['G', 'RG', 'K', 'CS', 'SC', 'SCN'].includes(op),
  });

const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const REGULAR = new Uint8Array(256).fill(1);
for (const c of [0, 9, 10, 12, 13, 32]) REGULAR[c] = 0;
for (const c of '()<>[]{}/%') REGULAR[c.charCodeAt(0)] = 0;
const HEX_DIGIT = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') HEX_DIGIT[c.charCodeAt(0)] = 1;
const NUMBER_START = new Uint8Array(256);
for (const c of '+-.0123456789') NUMBER_START[c.charCodeAt(0)] = 1;

/** A name's bytes as text, `#xx` escapes decoded. */
function nameText(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (c === 0x23 && i + 2 < end) {
      const hex = Number.parseInt(String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!), 16);
      if (!Number.isNaN(hex)) {
        out += String.fromCharCode(hex);
        i += 2;
        continue;
      }
    }
    out += String.fromCharCode(c);
  }
  return out;
}

/** The position past a literal string that starts at `pos` (balanced parentheses, backslash escapes). */
function skipLiteralString(bytes: Uint8Array, pos: number): number {
  let nesting = 0;
  for (let i = pos; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x5c) i++;
    else if (c === 0x28) nesting++;
    else if (c === 0x29 && --nesting === 0) return i + 1;
  }
  return bytes.length;
}

const MAX_OPERATIONS = 2_000_000;

/** Whether the fill and the stroke colour have been set, and how text is rendered (`Tr`). */
interface ColorState {
  fill: boolean;
  stroke: boolean;
  textMode: number;
}
/** The colours the enclosing content set, which a form or a glyph description inherits. */
const INHERITED: ColorState = { fill: true, stroke: true, textMode: 0 };
const MAX_FORM_DEPTH = 12;
const MAX_STREAM_BYTES = 16 * 1024 * 1024;

/**
 * Reads a page's content streams as operators (ISO 32000-1, 7.8.2), bounded in operations and form depth:
 * which device colour spaces are painted with (`device_colors`), and how much of the page's content is
 * neither tagged nor an artifact (`untagged_content`). A stream this reader cannot decode adds nothing.
 */
class ContentScan {
  readonly devices = new Set<DeviceColor>();
  untagged = 0;
  taggedInArtifacts = 0;
  private operations = 0;
  private readonly forms = new Set<number>();
  private readonly patterns = new Set<number>();
  private readonly type3Fonts = new Set<number>();
  /**
   * When set, each marked-content id met, and whether every text show inside it has a language from a
   * marked-content `/Lang` around it.
   */
  markedLanguage?: Map<number, boolean>;

  constructor(private readonly cos: CosFile) {}

  /** The device colour space a colour space value comes down to, unless a Default space replaces it. */
  private device(
    space: PdfValue | undefined,
    resources: PdfDict | undefined,
    depth = 0,
  ): DeviceColor | undefined {
    const cos = this.cos;
    if (depth > 4) return undefined;
    const resolved = cos.resolve(space);
    const name = nameOf(resolved);
    if (name !== undefined) {
      const device = DEVICE[name];
      if (device !== undefined)
        return cos.get(cos.dict(resources, 'ColorSpace'), DEFAULT_SPACE[device]) === undefined
          ? device
          : undefined;
      const named = cos.get(cos.dict(resources, 'ColorSpace'), name);
      return named === undefined ? undefined : this.device(named, resources, depth + 1);
    }
    if (!Array.isArray(resolved)) return undefined;
    const family = nameOf(cos.resolve(resolved[0]));
    // an indexed space's base, a separation's or DeviceN's alternate, an uncoloured pattern's underlying space
    if (family === 'Indexed' || family === 'I' || family === 'Pattern')
      return this.device(resolved[1], resources, depth + 1);
    if (family === 'Separation' || family === 'DeviceN')
      return this.device(resolved[2], resources, depth + 1);
    return undefined;
  }

  private add(device: DeviceColor | undefined): void {
    if (device !== undefined) this.devices.add(device);
  }

  /** A pattern selected as a colour: a coloured tiling pattern's cell is content; a shading's space, colour. */
  private pattern(name: string, resources: PdfDict | undefined, depth: number): void {
    const cos = this.cos;
    const raw = cos.dict(resources, 'Pattern')?.get(name);
    if (raw instanceof PdfRef) {
      if (this.patterns.has(raw.num)) return;
      this.patterns.add(raw.num);
    }
    const pattern = cos.resolve(raw);
    if (isStream(pattern)) {
      const dict = pattern.stream.dict;
      if (cos.get(dict, 'PaintType') !== 1 || depth >= MAX_FORM_DEPTH) return;
      const bytes = cos.streamBytes(pattern, MAX_STREAM_BYTES);
      // a cell is painted in the pattern's own space, from the initial graphics state
      if (bytes) this.scan(bytes, cos.dict(dict, 'Resources') ?? resources, false, depth + 1);
    } else if (isDict(pattern)) {
      const shading = cos.resolve(pattern.get('Shading'));
      const dict = isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
      this.add(this.device(dict?.get('ColorSpace'), resources));
    }
  }

  /**
   * A Type 3 font selected with `Tf`: its glyph descriptions that set their own colour (`d0`) are content;
   * those that start with `d1` are shapes only and their colour operators are ignored (ISO 32000-1 9.6.5).
   */
  private type3(name: string, resources: PdfDict | undefined, depth: number): void {
    const cos = this.cos;
    const raw = cos.dict(resources, 'Font')?.get(name);
    const font = cos.resolve(raw);
    if (!isDict(font) || nameOf(cos.get(font, 'Subtype')) !== 'Type3' || depth >= MAX_FORM_DEPTH) return;
    if (raw instanceof PdfRef) {
      if (this.type3Fonts.has(raw.num)) return;
      this.type3Fonts.add(raw.num);
    }
    const own = cos.dict(font, 'Resources') ?? resources;
    for (const proc of cos.dict(font, 'CharProcs')?.values() ?? []) {
      const glyph = cos.resolve(proc);
      if (!isStream(glyph)) continue;
      const bytes = cos.streamBytes(glyph, MAX_STREAM_BYTES);
      if (bytes && firstOperator(bytes) === 'd0') this.scan(bytes, own, false, depth + 1, INHERITED);
    }
  }

  contentBytes(contents: PdfValue | undefined): Uint8Array | undefined {
    const cos = this.cos;
    const resolved = cos.resolve(contents);
    const streams = Array.isArray(resolved) ? resolved.map((part) => cos.resolve(part)) : [resolved];
    const parts: Uint8Array[] = [];
    for (const stream of streams) {
      if (!isStream(stream)) continue;
      const bytes = cos.streamBytes(stream, MAX_STREAM_BYTES);
      if (bytes) parts.push(bytes, Uint8Array.of(10));
    }
    if (parts.length <= 2) return parts[0];
    return Buffer.concat(parts);
  }

  /** A form XObject or image drawn with `Do`. */
  private xobject(name: string, resources: PdfDict | undefined, depth: number, state: ColorState): void {
    const cos = this.cos;
    const raw = cos.dict(resources, 'XObject')?.get(name);
    const xobject = cos.resolve(raw);
    if (!isStream(xobject)) return;
    const dict = xobject.stream.dict;
    const subtype = nameOf(cos.get(dict, 'Subtype'));
    if (subtype === 'Image') {
      if (cos.get(dict, 'ImageMask') !== true) this.add(this.device(dict.get('ColorSpace'), resources));
      else if (!state.fill) this.defaultGray(resources);
      return;
    }
    if (subtype !== 'Form' || depth >= MAX_FORM_DEPTH) return;
    // a form drawn many times is read once: its colours are the same each time
    if (raw instanceof PdfRef) {
      if (this.forms.has(raw.num)) return;
      this.forms.add(raw.num);
    }
    const bytes = cos.streamBytes(xobject, MAX_STREAM_BYTES);
    const own = cos.dict(dict, 'Resources');
    if (bytes) this.scan(bytes, own ?? resources, false, depth + 1, state);
  }

  /** Painting with a colour never set: the initial DeviceGray, unless a DefaultGray replaces it. */
  private defaultGray(resources: PdfDict | undefined): void {
    if (!this.replaced(resources).has('gray')) this.devices.add('gray');
  }

  /** The device spaces a `DefaultGray`, `DefaultRGB` or `DefaultCMYK` of these resources replaces. */
  private replaced(resources: PdfDict | undefined): Set<DeviceColor> {
    const spaces = this.cos.dict(resources, 'ColorSpace');
    const replaced = new Set<DeviceColor>();
    if (spaces)
      for (const device of ['gray', 'rgb', 'cmyk'] as const)
        if (spaces.has(DEFAULT_SPACE[device])) replaced.add(device);
    return replaced;
  }

  /**
   * One content stream; `counted`: its untagged painting counts (a page's own content, not a form's). A
   * tokenizer of its own rather than the object lexer: operands other than names and dictionaries are
   * skipped byte by byte, never built, since content streams are mostly numbers.
   */
  scan(
    bytes: Uint8Array,
    resources: PdfDict | undefined,
    counted: boolean,
    depth = 0,
    inherited?: ColorState,
  ): void {
    const cos = this.cos;
    const replaced = this.replaced(resources);
    const n = bytes.length;
    // the marked content open around the operator: whether it tags (an MCID or an Artifact), and which
    const marked: ('artifact' | 'real' | undefined)[] = [];
    let artifacts = 0;
    // the marked content open around the operator: its MCID, and whether it gives a language
    const spans: { mcid: number | undefined; language: boolean }[] = [];
    let state: ColorState = { ...(inherited ?? { fill: false, stroke: false, textMode: 0 }) };
    const saved: ColorState[] = [];
    let numberStart = -1;
    let numberEnd = -1;
    const paintsUnset = (uses: 'fill' | 'stroke' | 'both' | 'text') => {
      // text rendering modes 0-7: fill, stroke, both, invisible, then the same adding to the clip
      const mode = state.textMode & 3;
      const fill = uses === 'fill' || uses === 'both' || (uses === 'text' && (mode === 0 || mode === 2));
      const stroke = uses === 'stroke' || uses === 'both' || (uses === 'text' && (mode === 1 || mode === 2));
      return (fill && !state.fill) || (stroke && !state.stroke);
    };
    let tagging = 0;
    let first: PdfValue | undefined;
    let last: PdfValue | undefined;
    let operands = 0;
    const operand = (value: PdfValue | undefined) => {
      if (operands++ === 0) first = value;
      last = value;
    };
    let pos = 0;
    while (pos < n && this.operations < MAX_OPERATIONS) {
      const c = bytes[pos]!;
      if (WHITESPACE[c]) {
        pos++;
        continue;
      }
      if (c === 0x25) {
        while (pos < n && bytes[pos] !== 10 && bytes[pos] !== 13) pos++;
        continue;
      }
      if (c === 0x2f) {
        const start = ++pos;
        while (pos < n && REGULAR[bytes[pos]!]) pos++;
        operand(new PdfName(nameText(bytes, start, pos)));
        continue;
      }
      if (c === 0x28) {
        pos = skipLiteralString(bytes, pos);
        operand(undefined);
        continue;
      }
      if (c === 0x3c) {
        if (bytes[pos + 1] === 0x3c) {
          const lexer = new Lexer(bytes, pos);
          try {
            operand(lexer.value());
            pos = lexer.pos;
          } catch {
            pos += 2;
          }
        } else {
          const end = bytes.indexOf(0x3e, pos);
          pos = end === -1 ? n : end + 1;
          operand(undefined);
        }
        continue;
      }
      if (!REGULAR[c]) {
        // array brackets and stray delimiters: an array's items are read as operands of their own
        pos++;
        continue;
      }
      const start = pos;
      while (pos < n && REGULAR[bytes[pos]!]) pos++;
      if (NUMBER_START[c]) {
        numberStart = start;
        numberEnd = pos;
        operand(undefined);
        continue;
      }
      this.operations++;
      const length = pos - start;
      const kind =
        length <= 3
          ? OPERATORS.get(
              (c << 16) | ((length > 1 ? bytes[start + 1]! : 0) << 8) | (length > 2 ? bytes[start + 2]! : 0),
            )
          : undefined;
      if (kind !== undefined) {
        if (kind.color !== undefined || kind.op === 'cs' || kind.op === 'scn') {
          if (kind.stroking) state.stroke = true;
          else state.fill = true;
        }
        const uses = PAINTS_WITH[kind.op];
        if (uses !== undefined && paintsUnset(uses) && !replaced.has('gray')) this.devices.add('gray');
        if (kind.color !== undefined) {
          if (!replaced.has(kind.color)) this.devices.add(kind.color);
        } else if (kind.op === 'cs') this.add(this.device(last, resources));
        else if (kind.op === 'scn') {
          if (last instanceof PdfName) this.pattern(last.name, resources, depth);
        } else if (kind.op === 'q') {
          saved.push(state);
          state = { ...state };
        } else if (kind.op === 'Q') state = saved.pop() ?? state;
        else if (kind.op === 'Tr') {
          const mode = numberStart < 0 ? NaN : Number(latin1(bytes, numberStart, numberEnd));
          if (Number.isInteger(mode)) state.textMode = mode;
        } else if (kind.op === 'Tf') {
          if (first instanceof PdfName) this.type3(first.name, resources, depth);
        } else if (kind.op === 'Do') {
          if (last instanceof PdfName) this.xobject(last.name, resources, depth, state);
        } else if (kind.op === 'sh') {
          if (last instanceof PdfName) {
            const shading = cos.resolve(cos.get(cos.dict(resources, 'Shading'), last.name));
            const dict = isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
            this.add(this.device(dict?.get('ColorSpace'), resources));
          }
        } else if (kind.op === 'BI') pos = this.inlineImage(bytes, pos, resources, state);
        else if (kind.op === 'BMC' || kind.op === 'BDC') {
          const properties = kind.op === 'BDC' ? cos.resolve(last) : undefined;
          const props =
            properties instanceof PdfName
              ? cos.dict(cos.dict(resources, 'Properties'), properties.name)
              : properties;
          const real = isDict(props) && typeof cos.get(props, 'MCID') === 'number';
          const tags = nameOf(first) === 'Artifact' ? 'artifact' : real ? 'real' : undefined;
          // real content inside an artifact is both at once (ISO 14289-1 7.1)
          if (tags === 'real' && artifacts > 0 && counted) this.taggedInArtifacts++;
          marked.push(tags);
          if (tags) tagging++;
          if (tags === 'artifact') artifacts++;
          if (this.markedLanguage) {
            const mcid = isDict(props) ? cos.get(props, 'MCID') : undefined;
            const language = isDict(props) && Boolean(textString(cos.get(props, 'Lang'))?.trim());
            spans.push({ mcid: typeof mcid === 'number' ? mcid : undefined, language });
            if (typeof mcid === 'number' && !this.markedLanguage.has(mcid))
              this.markedLanguage.set(mcid, true);
          }
        } else if (kind.op === 'EMC') {
          const closed = marked.pop();
          if (closed) tagging--;
          if (closed === 'artifact') artifacts--;
          spans.pop();
        }
        if (this.markedLanguage && uses === 'text' && !spans.some((span) => span.language)) {
          const mcid = spans.findLast((span) => span.mcid !== undefined)?.mcid;
          if (mcid !== undefined) this.markedLanguage.set(mcid, false);
        }
        if (counted && tagging === 0 && kind.paints) this.untagged++;
      }
      operands = 0;
      first = undefined;
      last = undefined;
      numberStart = -1;
    }
  }

  /** `BI` key-value pairs `ID` data `EI` from `pos`: the image's colour space; answers the position past it. */
  private inlineImage(
    bytes: Uint8Array,
    pos: number,
    resources: PdfDict | undefined,
    state: ColorState,
  ): number {
    const lexer = new Lexer(bytes, pos);
    const dict = new Map<string, PdfValue>();
    for (let pairs = 0; pairs < 64; pairs++) {
      lexer.skipSpace();
      if (bytes[lexer.pos] !== 0x2f) break;
      try {
        const key = lexer.value();
        const value = lexer.value();
        if (key instanceof PdfName) dict.set(key.name, value);
      } catch {
        break;
      }
    }
    if (lexer.word() !== 'ID') return lexer.pos;
    // the data ends at whitespace, `EI`, then whitespace or the end of the stream
    let at = lexer.pos + 1;
    let end = bytes.length;
    for (;;) {
      at = bytes.indexOf(0x45, at);
      if (at === -1) break;
      const before = bytes[at - 1];
      const after = bytes[at + 2];
      if (
        bytes[at + 1] === 0x49 &&
        (before === 32 || before === 10 || before === 13) &&
        (after === undefined || after <= 32)
      ) {
        end = at + 2;
        break;
      }
      at++;
    }
    const mask = dict.get('IM') ?? dict.get('ImageMask');
    if (mask !== true) this.add(this.device(dict.get('CS') ?? dict.get('ColorSpace'), resources));
    else if (!state.fill) this.defaultGray(resources);
    return end;
  }
}

/**
 * The marked-content ids of a page's content, each with whether marked content gives all of its text a
 * language: one of the sequences open around each text show (its own, or one inside it such as a `/Span`
 * with `/Lang`) has a `/Lang`. Content without text needs none.
 */
export function markedContentLanguage(cos: CosFile, page: PdfDict): Map<number, boolean> {
  const scan = new ContentScan(cos);
  scan.markedLanguage = new Map();
  try {
    const bytes = scan.contentBytes(page.get('Contents'));
    const resources = cos.resolve(cos.inherited(page, 'Resources'));
    if (bytes) scan.scan(bytes, isDict(resources) ? resources : undefined, false);
  } catch {
    // what a content stream this reader cannot follow held is left as found so far
  }
  return scan.markedLanguage;
}

/** The first operator of a content stream (a glyph description's `d0` or `d1`), or undefined. */
function firstOperator(bytes: Uint8Array): string | undefined {
  const head = latin1(bytes, 0, Math.min(256, bytes.length));
  return /(?:^|[\s\d.+-])(d0|d1)(?=\s|$)/.exec(head)?.[1];
}

/** The content facts of a page: its content streams, and the normal appearances of its annotations. */
export function scanPageContent(cos: CosFile, page: PdfDict, resources: PdfValue | undefined): ContentFacts {
  const scan = new ContentScan(cos);
  const pageResources = cos.resolve(resources);
  const own = isDict(pageResources) ? pageResources : undefined;
  try {
    const bytes = scan.contentBytes(page.get('Contents'));
    if (bytes) scan.scan(bytes, own, true);
    for (const raw of cos.array(page, 'Annots')) {
      const annotation = cos.resolve(raw);
      const normal = isDict(annotation) ? cos.get(cos.dict(annotation, 'AP'), 'N') : undefined;
      const streams = isStream(normal)
        ? [normal]
        : isDict(normal)
          ? [...normal.values()].map((v) => cos.resolve(v))
          : [];
      for (const stream of streams) {
        if (!isStream(stream)) continue;
        const bytes = cos.streamBytes(stream, MAX_STREAM_BYTES);
        if (bytes) scan.scan(bytes, cos.dict(stream.stream.dict, 'Resources'), false, 1);
      }
    }
  } catch {
    // a content stream this reader cannot follow leaves what was found so far
  }
  return {
    device_colors: [...scan.devices].sort(),
    untagged_content: scan.untagged,
    tagged_in_artifacts: scan.taggedInArtifacts,
  };
}
