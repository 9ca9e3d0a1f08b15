import type { CosFile } from './cos/file.js';
import {
  isDict,
  isStream,
  Lexer,
  nameOf,
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

/** What the scan does at an operator; keyed by its (at most three) bytes, so no string is made per token. */
interface OperatorKind {
  op: string;
  color?: DeviceColor;
  paints: boolean;
}
const operatorKey = (op: string) =>
  (op.charCodeAt(0) << 16) | ((op.charCodeAt(1) || 0) << 8) | (op.charCodeAt(2) || 0);
const OPERATORS = new Map<number, OperatorKind>();
for (const op of [...PAINTING, ...Object.keys(OPERATOR_COLOR), 'cs', 'CS', 'BMC', 'BDC', 'EMC'])
  OPERATORS.set(operatorKey(op), {
    op: op === 'CS' ? 'cs' : op,
    color: OPERATOR_COLOR[op],
    paints: PAINTING.includes(op),
  });

const WHITESPACE = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) WHITESPACE[c] = 1;
const REGULAR = new Uint8Array(256).fill(1);
for (const c of [0, 9, 10, 12, 13, 32]) REGULAR[c] = 0;
for (const c of '()<>[]{}/%') REGULAR[c.charCodeAt(0)] = 0;
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
const MAX_FORM_DEPTH = 12;
const MAX_STREAM_BYTES = 16 * 1024 * 1024;

/**
 * Reads a page's content streams as operators (ISO 32000-1, 7.8.2), bounded in operations and form depth:
 * which device colour spaces are painted with, for PDF/A (6.2.4.3), and how much of the page's content is
 * neither tagged nor an artifact, for PDF/UA (7.1). A stream this reader cannot decode adds nothing.
 */
class ContentScan {
  readonly devices = new Set<DeviceColor>();
  untagged = 0;
  private operations = 0;
  private readonly forms = new Set<number>();

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
  private xobject(name: string, resources: PdfDict | undefined, depth: number): void {
    const cos = this.cos;
    const raw = cos.dict(resources, 'XObject')?.get(name);
    const xobject = cos.resolve(raw);
    if (!isStream(xobject)) return;
    const dict = xobject.stream.dict;
    const subtype = nameOf(cos.get(dict, 'Subtype'));
    if (subtype === 'Image') {
      if (cos.get(dict, 'ImageMask') !== true) this.add(this.device(dict.get('ColorSpace'), resources));
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
    if (bytes) this.scan(bytes, own ?? resources, false, depth + 1);
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
  scan(bytes: Uint8Array, resources: PdfDict | undefined, counted: boolean, depth = 0): void {
    const cos = this.cos;
    const replaced = this.replaced(resources);
    const n = bytes.length;
    const marked: boolean[] = [];
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
        if (kind.color !== undefined) {
          if (!replaced.has(kind.color)) this.devices.add(kind.color);
        } else if (kind.op === 'cs') this.add(this.device(last, resources));
        else if (kind.op === 'Do') {
          if (last instanceof PdfName) this.xobject(last.name, resources, depth);
        } else if (kind.op === 'sh') {
          if (last instanceof PdfName) {
            const shading = cos.resolve(cos.get(cos.dict(resources, 'Shading'), last.name));
            const dict = isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
            this.add(this.device(dict?.get('ColorSpace'), resources));
          }
        } else if (kind.op === 'BI') pos = this.inlineImage(bytes, pos, resources);
        else if (kind.op === 'BMC' || kind.op === 'BDC') {
          const properties = kind.op === 'BDC' ? cos.resolve(last) : undefined;
          const props =
            properties instanceof PdfName
              ? cos.dict(cos.dict(resources, 'Properties'), properties.name)
              : properties;
          const tags =
            nameOf(first) === 'Artifact' || (isDict(props) && typeof cos.get(props, 'MCID') === 'number');
          marked.push(tags);
          if (tags) tagging++;
        } else if (kind.op === 'EMC') {
          if (marked.pop()) tagging--;
        }
        if (counted && tagging === 0 && kind.paints) this.untagged++;
      }
      operands = 0;
      first = undefined;
      last = undefined;
    }
  }

  /** `BI` key-value pairs `ID` data `EI` from `pos`: the image's colour space; answers the position past it. */
  private inlineImage(bytes: Uint8Array, pos: number, resources: PdfDict | undefined): number {
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
    return end;
  }
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
  return { device_colors: [...scan.devices].sort(), untagged_content: scan.untagged };
}
