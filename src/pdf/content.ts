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

const DEVICE: Record<string, DeviceColor> = {
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
const PAINTING = new Set([
  'Tj',
  'TJ',
  "'",
  '"',
  'f',
  'F',
  'f*',
  'B',
  'B*',
  'b',
  'b*',
  'S',
  's',
  'Do',
  'sh',
  'EI',
]);

const MAX_OPERATIONS = 2_000_000;
const MAX_FORM_DEPTH = 12;
const MAX_STREAM_BYTES = 16 * 1024 * 1024;
/** Bytes that can start an operand (a name, a string, an array, a dictionary, a number). */
const OPERAND_START = new Set([...'/(<[+-.0123456789'].map((c) => c.charCodeAt(0)));

/** A marked-content sequence, and whether it tags its content (an MCID) or marks it an artifact. */
interface Marked {
  tags: boolean;
}

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

  /** One content stream; `counted`: its untagged painting counts (a page's own content, not a form's). */
  scan(bytes: Uint8Array, resources: PdfDict | undefined, counted: boolean, depth = 0): void {
    const cos = this.cos;
    const lexer = new Lexer(bytes);
    const operands: PdfValue[] = [];
    const marked: Marked[] = [];
    let tagging = 0;
    while (this.operations < MAX_OPERATIONS) {
      lexer.skipSpace();
      if (lexer.pos >= bytes.length) break;
      const c = bytes[lexer.pos]!;
      if (OPERAND_START.has(c)) {
        try {
          operands.push(lexer.value());
        } catch {
          lexer.pos++;
        }
        if (operands.length > 32) operands.shift();
        continue;
      }
      const operator = lexer.word();
      if (operator === '') {
        lexer.pos++;
        continue;
      }
      this.operations++;
      const first = operands[0];
      const last = operands.at(-1);
      if (OPERATOR_COLOR[operator] !== undefined) {
        if (cos.get(cos.dict(resources, 'ColorSpace'), DEFAULT_SPACE[OPERATOR_COLOR[operator]]) === undefined)
          this.devices.add(OPERATOR_COLOR[operator]);
      } else if (operator === 'cs' || operator === 'CS') this.add(this.device(last, resources));
      else if (operator === 'Do' && last instanceof PdfName) this.xobject(last.name, resources, depth);
      else if (operator === 'sh' && last instanceof PdfName) {
        const shading = cos.resolve(cos.get(cos.dict(resources, 'Shading'), last.name));
        const dict = isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
        this.add(this.device(dict?.get('ColorSpace'), resources));
      } else if (operator === 'BI') this.inlineImage(lexer, resources);
      else if (operator === 'BMC' || operator === 'BDC') {
        const properties = operator === 'BDC' ? cos.resolve(last) : undefined;
        const props =
          properties instanceof PdfName
            ? cos.dict(cos.dict(resources, 'Properties'), properties.name)
            : properties;
        const tags =
          nameOf(first) === 'Artifact' || (isDict(props) && typeof cos.get(props, 'MCID') === 'number');
        marked.push({ tags });
        if (tags) tagging++;
      } else if (operator === 'EMC') {
        const ended = marked.pop();
        if (ended?.tags) tagging--;
      }
      if (counted && tagging === 0 && (PAINTING.has(operator) || operator === 'BI')) this.untagged++;
      operands.length = 0;
    }
  }

  /** `BI` key-value pairs `ID` data `EI`: the image's colour space, and the cursor past its data. */
  private inlineImage(lexer: Lexer, resources: PdfDict | undefined): void {
    const bytes = lexer.bytes;
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
    if (lexer.word() !== 'ID') return;
    lexer.pos++;
    // the data ends at whitespace, `EI`, then whitespace or the end of the stream
    let at = lexer.pos;
    for (;;) {
      at = bytes.indexOf(0x45, at);
      if (at === -1) {
        lexer.pos = bytes.length;
        break;
      }
      const before = bytes[at - 1];
      const after = bytes[at + 2];
      if (
        bytes[at + 1] === 0x49 &&
        (before === 32 || before === 10 || before === 13) &&
        (after === undefined || after <= 32)
      ) {
        lexer.pos = at + 2;
        break;
      }
      at++;
    }
    const mask = dict.get('IM') ?? dict.get('ImageMask');
    if (mask !== true) this.add(this.device(dict.get('CS') ?? dict.get('ColorSpace'), resources));
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
