import type { Schemas } from '../contract/schemas.js';
import type { CosFile } from './cos/file.js';
import {
  isDict,
  isStream,
  latin1,
  nameOf,
  PdfName,
  type PdfDict,
  PdfRef,
  type PdfValue,
  textString,
} from './cos/syntax.js';
import { actionFacts } from './actions.js';
import { type AnnotationFacts, formFieldFacts, pageAnnotations } from './annotations.js';
import { type ContentFacts, DEVICE, type DeviceColor, scanPageContent } from './content.js';
import { glyphNameMapsToUnicode } from './glyph-names.js';
import { structFacts } from './struct-tree.js';
import { fileHeader } from './file-header.js';
import { xmpText as decodeXmp } from './xmp-encoding.js';
import { firstText, propertyOf, readXmp, type XmpPacket } from './xmp/rdf.js';

/**
 * Facts read from the file's objects rather than through PDFium's API: the catalog's accessibility and
 * archive markers, page boxes as PDF resolves them, and the font and image dictionaries a page's resources
 * hold. Every walk here is bounded (nesting, nodes visited), so a hostile file costs at most that much.
 */

type Report = Schemas['PreflightReport'];
type ImageFacts = Report['pages'][number]['images'][number];
type FontFacts = Report['pages'][number]['fonts'][number];

// the contract's names, so that what is read here cannot drift from what the report promises
export type ColorSpaceName = NonNullable<ImageFacts['color_space']>;
export type ImageEncoding = ImageFacts['encoding'];
export type Box = [number, number, number, number];

export type CatalogFacts = Pick<
  Report['document'],
  | 'tagged'
  | 'display_doc_title'
  | 'xmp_title'
  | 'linearized'
  | 'xmp_metadata'
  | 'pdfa'
  | 'pdfua'
  | 'pdfx'
  | 'output_intents'
  | 'struct_figures'
  | 'struct_figures_without_alt'
  | 'struct_content'
  | 'struct_content_without_language'
  | 'struct_languages'
  | 'struct_types_nonstandard'
  | 'struct_heading_skips'
  | 'struct_table_headers_without_scope'
  | 'trailer_id'
  | 'file_header'
  | 'suspects'
  | 'actions'
  | 'additional_actions'
  | 'form_fields'
  | 'form_fields_without_description'
>;

/** An image dictionary's facts, with the pixel size it is matched by. */
export type RawImage = Pick<
  ImageFacts,
  'color_space' | 'icc_components' | 'bits_per_component' | 'encoding'
> & {
  width: number;
  height: number;
};

export type RawFont = Pick<FontFacts, 'subset' | 'to_unicode' | 'encoding' | 'unicode_mapping'>;

/** A font of a page's resources as pdffonts lists it, with what its dictionary says. */
export interface ListedFont extends RawFont {
  /** The name PDFium gives it: a simple font's `/BaseFont` without its subset tag, a Type 0 font's descendant's. */
  name: string;
  /** The kind of its program, by the font file key and its `/Subtype` (Type1, TrueType, Type1C, OpenType, Type3). */
  type: string;
  /** As pdffonts' `emb`: a Type 3 font, or a font descriptor whose FontFile, FontFile2 or FontFile3 is a stream. */
  embedded: boolean;
  /** The font descriptor's `/Flags` (the descendant's of a Type 0 font), which PDFium gives too. */
  flags: number | null;
}

export interface PageStructure {
  boxes: { media: Box; crop: Box; bleed: Box; trim: Box; art: Box };
  transparency: boolean;
  /** The colour space family of the page's transparency group (`/Group /CS`), null when it names none. */
  group_color_space: string | null;
  /** Device spaces that transparency groups (the page's, forms', ...) name as their blending space (`/CS`). */
  group_device_colors: DeviceColor[];
  spot_colors: string[];
  /** The fonts by every name PDFium may give them (see `ResourceWalk.font`). */
  fonts: Map<string, ListedFont>;
  /** The fonts pdffonts lists for the page, in its order, each font object once. */
  listed_fonts: ListedFont[];
  images: RawImage[];
  blend_modes: string[];
  transfer_functions: boolean;
  rendering_intents: string[];
  interpolated_images: number;
  tab_order: string | null;
  annotation_details: AnnotationFacts[];
  content: ContentFacts;
}

/** What a file whose objects cannot be read is taken to have. */
export const NO_CATALOG_FACTS: CatalogFacts = {
  tagged: false,
  display_doc_title: false,
  xmp_title: null,
  linearized: false,
  xmp_metadata: false,
  pdfa: null,
  pdfua: null,
  pdfx: null,
  output_intents: [],
  struct_figures: 0,
  struct_figures_without_alt: 0,
  struct_content: 0,
  struct_content_without_language: 0,
  struct_languages: [],
  struct_types_nonstandard: [],
  struct_heading_skips: [],
  struct_table_headers_without_scope: 0,
  trailer_id: false,
  file_header: null,
  suspects: false,
  actions: [],
  additional_actions: [],
  form_fields: 0,
  form_fields_without_description: 0,
};

const MAX_RESOURCE_NODES = 10_000;
const MAX_NESTING = 12;
const MAX_XMP_BYTES = 4 * 1024 * 1024;

const round2 = (n: number) => Math.round(n * 100) / 100;
/** Opacity at or above this is opaque: no 8- or 16-bit compositing can tell it from 1. */
const OPAQUE = 1 - 1e-6;

/** The catalog's facts; `fileHead` is the file's first KiB (where a linearization dictionary must be). */
export function catalogFacts(cos: CosFile, fileHead: Uint8Array, infoPdfx: string | null): CatalogFacts {
  const catalog = cos.catalog;
  const markInfo = cos.dict(catalog, 'MarkInfo');
  const viewer = cos.dict(catalog, 'ViewerPreferences');
  const metadata = cos.get(catalog, 'Metadata');
  const xmp = isStream(metadata) ? cos.streamBytes(metadata, MAX_XMP_BYTES) : undefined;
  const packet: XmpPacket = xmp
    ? readXmp(decodeXmp(xmp))
    : { wellFormed: false, reason: 'none', properties: [] };
  // ISO 19005-2 6.1.3: the ID is in the newest trailer itself (a linearized file's first-page trailer)
  const id = cos.resolve((cos.newestTrailer ?? cos.trailer).get('ID'));
  const struct = structFacts(cos, catalog);
  return {
    tagged: cos.get(markInfo, 'Marked') === true && isDict(cos.get(catalog, 'StructTreeRoot')),
    display_doc_title: cos.get(viewer, 'DisplayDocTitle') === true,
    xmp_title:
      firstText(propertyOf(packet, DC, 'title')?.value)
        ?.trim()
        .slice(0, 2000) || null,
    linearized: isLinearized(fileHead, cos.size),
    xmp_metadata: isStream(metadata),
    pdfa: pdfaOf(packet),
    pdfua: pdfuaOf(packet),
    pdfx: infoPdfx ?? xmpProperty(packet, PDFXID, 'GTS_PDFXVersion'),
    output_intents: cos.array(catalog, 'OutputIntents').flatMap((entry) => {
      const intent = cos.resolve(entry);
      if (!isDict(intent)) return [];
      const identifier = textString(cos.get(intent, 'OutputConditionIdentifier'));
      const profile = cos.get(intent, 'DestOutputProfile');
      const components = isStream(profile) ? cos.get(profile.stream.dict, 'N') : undefined;
      return [
        {
          subtype: nameOf(cos.get(intent, 'S')) ?? 'unknown',
          identifier: identifier === undefined || cos.ciphertext ? null : identifier,
          components: typeof components === 'number' ? components : null,
          ...iccHeader(cos, profile),
        },
      ];
    }),
    trailer_id:
      Array.isArray(id) &&
      id.length === 2 &&
      id.every((part) => {
        const bytes = cos.resolve(part);
        return bytes instanceof Uint8Array && bytes.length > 0;
      }),
    file_header: fileHeader(fileHead),
    suspects: cos.get(markInfo, 'Suspects') === true,
    ...struct,
    ...actionFacts(cos),
    ...formFieldFacts(cos),
  };
}

/**
 * The device class and colour space an ICC profile's header declares (bytes 12-19, ICC.1 7.2.5 and 7.2.6),
 * trimmed: `prtr`, `mntr`, `scnr`; `RGB`, `CMYK`, `GRAY`. Nulls when there is no profile or it is unreadable.
 */
function iccHeader(
  cos: CosFile,
  profile: PdfValue | undefined,
): { profile_class: string | null; profile_color_space: string | null } {
  const bytes = isStream(profile) ? cos.streamBytes(profile, 16 * 1024 * 1024) : undefined;
  if (!bytes || bytes.length < 128 || latin1(bytes, 36, 40) !== 'acsp')
    return { profile_class: null, profile_color_space: null };
  return {
    profile_class: latin1(bytes, 12, 16).trim(),
    profile_color_space: latin1(bytes, 16, 20).trim(),
  };
}

/** As poppler decides "Optimized": the first object is a linearization dictionary whose /L is the file's length. */
function isLinearized(head: Uint8Array, size: number): boolean {
  const text = latin1(head, 0, Math.min(head.length, 1024));
  const object = /\d+\s+\d+\s+obj\s*<<(.*?)>>/s.exec(text);
  if (!object || !/\/Linearized\s/.test(object[1]!)) return false;
  const length = /\/L\s+(\d+)/.exec(object[1]!);
  return length !== null && Number(length[1]) === size;
}

const DC = 'http://purl.org/dc/elements/1.1/';
const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const PDFUAID = 'http://www.aiim.org/pdfua/ns/id/';
const PDFXID = 'http://www.npes.org/pdfx/ns/id/';

/** A top-level XMP property's text, trimmed; null when absent, empty or not a simple value. */
function xmpProperty(packet: XmpPacket, namespace: string, name: string): string | null {
  const value = propertyOf(packet, namespace, name)?.value;
  const text = value?.kind === 'simple' ? value.text.trim() : '';
  return text ? text : null;
}

/**
 * The PDF/A identification (ISO 19005-2, 6.6.4): `pdfaid:part` 1 to 4 and a `pdfaid:conformance` (A, B or U;
 * part 4 may have none), in the identification schema's namespace and with its prefix, `pdfaid`. Anything else
 * claims nothing.
 */
function pdfaOf(packet: XmpPacket): string | null {
  if (!writtenWithPrefix(packet, PDFAID, 'pdfaid')) return null;
  const part = xmpProperty(packet, PDFAID, 'part');
  if (!part || !/^[1-4]$/.test(part)) return null;
  const conformance = (xmpProperty(packet, PDFAID, 'conformance') ?? '').toUpperCase();
  if (part !== '4' && !/^[ABU]$/.test(conformance)) return null;
  return `${part}${conformance}`;
}

/**
 * The PDF/UA part claimed (ISO 14289-1, 5): `pdfuaid:part` in the identification schema's namespace, every
 * property of which is written with the prefix `pdfuaid`, as the clause asks. Anything else claims nothing.
 */
function pdfuaOf(packet: XmpPacket): string | null {
  return writtenWithPrefix(packet, PDFUAID, 'pdfuaid') ? xmpProperty(packet, PDFUAID, 'part') : null;
}

/** Every top-level property of the namespace is written with the prefix an identification schema requires. */
const writtenWithPrefix = (packet: XmpPacket, namespace: string, prefix: string) =>
  packet.properties.every((property) => property.namespace !== namespace || property.prefix === prefix);

function boxOf(cos: CosFile, value: PdfValue | undefined): Box | undefined {
  const array = cos.resolve(value);
  if (!Array.isArray(array) || array.length !== 4) return undefined;
  const n = array.map((v) => cos.resolve(v));
  if (!n.every((v): v is number => typeof v === 'number' && Number.isFinite(v))) return undefined;
  return [Math.min(n[0]!, n[2]!), Math.min(n[1]!, n[3]!), Math.max(n[0]!, n[2]!), Math.max(n[1]!, n[3]!)];
}

function clip(box: Box, to: Box): Box {
  const clipped: Box = [
    Math.max(box[0], to[0]),
    Math.max(box[1], to[1]),
    Math.min(box[2], to[2]),
    Math.min(box[3], to[3]),
  ];
  // a box wholly outside the media box is kept as given, as poppler does
  return clipped[0] <= clipped[2] && clipped[1] <= clipped[3] ? clipped : box;
}

/** PDF's page boxes, resolved as poppler resolves them (normalised, defaults, clipped to the media box). */
function pageBoxes(cos: CosFile, page: PdfDict): PageStructure['boxes'] {
  const media = boxOf(cos, cos.inherited(page, 'MediaBox')) ?? [0, 0, 612, 792];
  const crop = clip(boxOf(cos, cos.inherited(page, 'CropBox')) ?? media, media);
  const other = (key: string) => clip(boxOf(cos, page.get(key)) ?? crop, media);
  const rounded = (box: Box): Box => box.map(round2) as Box;
  return {
    media: rounded(media),
    crop: rounded(crop),
    bleed: rounded(other('BleedBox')),
    trim: rounded(other('TrimBox')),
    art: rounded(other('ArtBox')),
  };
}

const FILTERS: Record<string, ImageEncoding> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  DCTDecode: 'dct',
  DCT: 'dct',
  JPXDecode: 'jpx',
  JBIG2Decode: 'jbig2',
  CCITTFaxDecode: 'ccitt',
  CCF: 'ccitt',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'runlength',
  RL: 'runlength',
};

/** The last filter of a stream, which is the image's own coding. */
export function encodingOf(filterNames: (string | undefined)[]): ImageEncoding {
  const last = filterNames.at(-1);
  return (last !== undefined && FILTERS[last]) || 'none';
}

const SUBSET_PREFIX = /^[A-Z]{6}\+/;

const PROCESS_COLORANTS = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'All', 'None']);

/** The named encodings that map a simple font's codes to Unicode by themselves (ISO 32000-1, 9.10.2). */
const UNICODE_ENCODINGS = new Set([
  'WinAnsiEncoding',
  'MacRomanEncoding',
  'StandardEncoding',
  'MacExpertEncoding',
]);
/** The standard-14 fonts whose built-in encoding is StandardEncoding (Symbol and ZapfDingbats have their own). */
const LATIN_STANDARD_14 = /^(Times|Helvetica|Courier)(-|$)/;

type UnicodeMapping = RawFont['unicode_mapping'];

/**
 * How a font's text maps to Unicode, by the ways ISO 32000-1 (9.10.2) lists and PDF/UA-1 (7.21.7) accepts:
 * a ToUnicode map; a simple font's standard encoding; a `/Differences` whose glyph names all come from the
 * Adobe Glyph List; a Type 0 font's predefined CMap other than Identity. `none` when no way applies.
 */
function unicodeMapping(cos: CosFile, dict: PdfDict, baseFont: string): UnicodeMapping {
  if (isStream(cos.get(dict, 'ToUnicode'))) return 'to_unicode';
  const encoding = cos.get(dict, 'Encoding');
  const encodingName = nameOf(encoding);
  if (nameOf(cos.get(dict, 'Subtype')) === 'Type0')
    return encodingName !== undefined && !/^Identity-[HV]$/.test(encodingName) ? 'predefined_cmap' : 'none';
  if (encodingName !== undefined) return UNICODE_ENCODINGS.has(encodingName) ? 'standard_encoding' : 'none';
  if (isDict(encoding)) {
    const base = nameOf(cos.get(encoding, 'BaseEncoding'));
    if (base !== undefined && !UNICODE_ENCODINGS.has(base)) return 'none';
    const names = cos
      .array(encoding, 'Differences')
      .map((entry) => cos.resolve(entry))
      .filter((entry): entry is PdfName => entry instanceof PdfName)
      .map((entry) => entry.name);
    if (!names.every((name) => name === '.notdef' || glyphNameMapsToUnicode(name))) return 'none';
    return names.length > 0 ? 'glyph_names' : base !== undefined ? 'standard_encoding' : 'none';
  }
  return encoding === undefined && LATIN_STANDARD_14.test(baseFont) ? 'standard_encoding' : 'none';
}

interface ColorSpaceFacts {
  name: ColorSpaceName | null;
  components: number | null;
  spots: string[];
}

/**
 * The font file of a font dictionary (a Type 0 font's descendant's), as poppler finds it (`GfxFont::getFontType`):
 * FontFile, then FontFile2, then FontFile3, each an indirect stream.
 */
function fontProgram(cos: CosFile, dict: PdfDict): { embedded: boolean; type: string; flags: number | null } {
  if (nameOf(cos.get(dict, 'Subtype')) === 'Type3') return { embedded: true, type: 'Type3', flags: null };
  const descendant = cos.resolve(cos.array(dict, 'DescendantFonts')[0]);
  const descriptor = cos.dict(isDict(descendant) ? descendant : dict, 'FontDescriptor');
  const flags = cos.get(descriptor, 'Flags');
  const found = { embedded: false, type: 'unknown', flags: typeof flags === 'number' ? flags : null };
  for (const key of ['FontFile', 'FontFile2', 'FontFile3']) {
    const raw = descriptor?.get(key);
    const program = raw instanceof PdfRef ? cos.resolve(raw) : undefined;
    if (!isStream(program)) continue;
    const subtype = nameOf(cos.get(program.stream.dict, 'Subtype'));
    const type =
      key === 'FontFile'
        ? 'Type1'
        : key === 'FontFile2'
          ? 'TrueType'
          : subtype === 'OpenType'
            ? 'OpenType'
            : subtype === 'Type1C' || subtype === 'CIDFontType0C'
              ? 'Type1C'
              : 'unknown';
    return { ...found, embedded: true, type };
  }
  return found;
}

/**
 * The appearance stream poppler takes as an annotation's (`Annot::initialize`): `/AP /N` itself when it is a
 * stream, else its entry named by `/AS` (the only entry when there is no `/AS`, else `Off`).
 */
function selectedAppearance(cos: CosFile, annotation: PdfDict): PdfValue | undefined {
  const normal = cos.get(cos.dict(annotation, 'AP'), 'N');
  if (isStream(normal) || !isDict(normal)) return normal;
  const state = nameOf(cos.get(annotation, 'AS')) ?? (normal.size === 1 ? [...normal.keys()][0]! : 'Off');
  return cos.get(normal, state);
}

/**
 * Walks one page's resources (forms, patterns and annotation appearances included), at most once each. Its
 * fonts are listed as pdffonts lists them (poppler's `FontInfoScanner`): the page's `/Font` entries, then those
 * of its XObjects' and patterns' resources, depth first, then those of each annotation's appearance; each font
 * object once. The fonts of Type 3 glyphs' resources, which pdffonts does not scan, are walked last, unlisted.
 */
class ResourceWalk {
  /** The fonts by name: see `font`. */
  readonly fonts = new Map<string, ListedFont>();
  readonly listed: ListedFont[] = [];
  /** Type 3 fonts' resources, walked after everything else (their fonts are not listed). */
  private readonly glyphResources: { value: PdfValue | undefined; depth: number }[] = [];
  private listing = true;
  /** The names in `fonts` that are a font's own (as written), not a tagless alias of one. */
  private readonly ownFontNames = new Set<string>();
  /** The tagless names that stand for a Type 0 font, until a simple font of that name claims them. */
  private readonly typeZeroAliases = new Set<string>();
  readonly images: RawImage[] = [];
  readonly spots = new Set<string>();
  readonly blendModes = new Set<string>();
  readonly renderingIntents = new Set<string>();
  transferFunctions = false;
  interpolatedImages = 0;
  transparency = false;
  /** Device spaces that transparency groups blend in (their `/CS`): PDF/A's blending colour space rule. */
  readonly groupDevices = new Set<DeviceColor>();
  private readonly seen = new Set<number>();
  private visited = 0;

  constructor(private readonly cos: CosFile) {}

  private once(value: PdfValue | undefined): boolean {
    if (this.visited++ > MAX_RESOURCE_NODES) return false;
    if (value instanceof PdfRef) {
      if (this.seen.has(value.num)) return false;
      this.seen.add(value.num);
    }
    return true;
  }

  colorSpace(value: PdfValue | undefined, resources: PdfDict | undefined, depth = 0): ColorSpaceFacts {
    const cos = this.cos;
    const unknown: ColorSpaceFacts = { name: null, components: null, spots: [] };
    if (depth > 4) return unknown;
    const resolved = cos.resolve(value);
    const family = nameOf(resolved) ?? nameOf(Array.isArray(resolved) ? cos.resolve(resolved[0]) : undefined);
    switch (family) {
      case 'DeviceGray':
      case 'G':
      case 'CalGray':
        return { name: 'gray', components: 1, spots: [] };
      case 'DeviceRGB':
      case 'RGB':
      case 'CalRGB':
        return { name: 'rgb', components: 3, spots: [] };
      case 'DeviceCMYK':
      case 'CMYK':
        return { name: 'cmyk', components: 4, spots: [] };
      case 'Lab':
        return { name: 'lab', components: 3, spots: [] };
      case 'Indexed':
      case 'I': {
        const base = Array.isArray(resolved) ? this.colorSpace(resolved[1], resources, depth + 1) : unknown;
        return { name: 'indexed', components: 1, spots: base.spots };
      }
      case 'ICCBased': {
        const profile = Array.isArray(resolved) ? cos.resolve(resolved[1]) : undefined;
        const n = isStream(profile) ? cos.get(profile.stream.dict, 'N') : undefined;
        return { name: 'icc', components: typeof n === 'number' ? n : null, spots: [] };
      }
      case 'Separation': {
        const colorant = Array.isArray(resolved) ? nameOf(cos.resolve(resolved[1])) : undefined;
        return { name: 'separation', components: 1, spots: colorant === undefined ? [] : [colorant] };
      }
      case 'DeviceN': {
        const names = Array.isArray(resolved) ? cos.resolve(resolved[1]) : undefined;
        const colorants = Array.isArray(names) ? names.map((n) => nameOf(cos.resolve(n)) ?? '') : [];
        return { name: 'devicen', components: colorants.length, spots: colorants.filter(Boolean) };
      }
      case 'Pattern':
        return unknown;
      default: {
        // a name that refers to the resources' /ColorSpace dictionary
        if (family === undefined || Array.isArray(resolved)) return unknown;
        const named = cos.get(cos.dict(resources, 'ColorSpace'), family);
        return named === undefined ? unknown : this.colorSpace(named, resources, depth + 1);
      }
    }
  }

  private addSpots(spots: string[]): void {
    for (const spot of spots) if (!PROCESS_COLORANTS.has(spot)) this.spots.add(spot);
  }

  private image(dict: PdfDict, resources: PdfDict | undefined): void {
    const cos = this.cos;
    const width = cos.get(dict, 'Width');
    const height = cos.get(dict, 'Height');
    if (typeof width !== 'number' || typeof height !== 'number') return;
    const filter = cos.get(dict, 'Filter');
    const filters = (Array.isArray(filter) ? filter : [filter]).map((f) => nameOf(cos.resolve(f)));
    const stencil = cos.get(dict, 'ImageMask') === true;
    if (cos.get(dict, 'Interpolate') === true) this.interpolatedImages++;
    this.intent(cos.get(dict, 'Intent'));
    const space = stencil
      ? { name: null, components: null, spots: [] }
      : this.colorSpace(dict.get('ColorSpace'), resources);
    this.addSpots(space.spots);
    const bpc = cos.get(dict, 'BitsPerComponent');
    const smask = cos.get(dict, 'SMask');
    const smaskInData = cos.get(dict, 'SMaskInData');
    if (isStream(smask) || (typeof smaskInData === 'number' && smaskInData > 0)) this.transparency = true;
    this.images.push({
      width,
      height,
      color_space: space.name,
      icc_components: space.name === 'icc' ? space.components : null,
      bits_per_component: stencil ? 1 : typeof bpc === 'number' ? bpc : null,
      encoding: encodingOf(filters),
    });
  }

  /**
   * Keyed by every name PDFium may give the font: its BaseFont as written (a subset's tag included), a Type 0
   * font's descendant's BaseFont, and each without its subset tag. A name as written is the font's own; a
   * name without the tag goes to the first simple font that has it (PDFium names simple fonts without their
   * tag), else to the first Type 0 font: two fonts called Calibri (a subset simple one and a subset Type 0
   * one, as Word writes them) each keep their own facts.
   */
  private font(dict: PdfDict): void {
    const cos = this.cos;
    if (!this.listing) return;
    const baseFont = nameOf(cos.get(dict, 'BaseFont')) ?? 'unnamed';
    const descendant = cos.resolve(cos.array(dict, 'DescendantFonts')[0]);
    const descendantName = isDict(descendant) ? nameOf(cos.get(descendant, 'BaseFont')) : undefined;
    const written = [baseFont, ...(descendantName ? [descendantName] : [])];
    const encoding = cos.get(dict, 'Encoding');
    let encodingName: string | null = nameOf(encoding) ?? null;
    if (isDict(encoding))
      encodingName = encoding.has('Differences')
        ? 'Custom'
        : (nameOf(cos.get(encoding, 'BaseEncoding')) ?? null);
    else if (isStream(encoding)) encodingName = 'Embedded';
    const typeZero = nameOf(cos.get(dict, 'Subtype')) === 'Type0';
    const raw: ListedFont = {
      name: typeZero ? (descendantName ?? baseFont) : baseFont.replace(SUBSET_PREFIX, ''),
      ...fontProgram(cos, dict),
      // poppler's GfxFont::isSubset: six capitals and a '+' before more of the name
      subset: SUBSET_PREFIX.test(baseFont) && baseFont.length > 7,
      // as pdffonts' `uni` column: a /ToUnicode that is not a stream is no map (ISO 32000-1 9.10.3)
      to_unicode: isStream(cos.get(dict, 'ToUnicode')),
      encoding: encodingName,
      unicode_mapping: unicodeMapping(cos, dict, baseFont.replace(SUBSET_PREFIX, '')),
    };
    this.listed.push(raw);
    // the first font of a name keeps it: two font objects of one name are told apart by the listing
    if (this.ownFontNames.has(baseFont)) return;
    for (const name of written) {
      this.fonts.set(name, raw);
      this.ownFontNames.add(name);
    }
    // PDFium names a simple font without its subset tag and a Type 0 font as written: a tagless name is a
    // simple font's before it is a Type 0 font's
    const hasDescendant = descendantName !== undefined;
    for (const name of written) {
      const untagged = name.replace(SUBSET_PREFIX, '');
      if (this.ownFontNames.has(untagged)) continue;
      if (!this.fonts.has(untagged) || (!hasDescendant && this.typeZeroAliases.has(untagged))) {
        this.fonts.set(untagged, raw);
        if (hasDescendant) this.typeZeroAliases.add(untagged);
        else this.typeZeroAliases.delete(untagged);
      }
    }
  }

  private intent(value: PdfValue | undefined): void {
    const name = nameOf(value);
    if (name !== undefined && this.renderingIntents.size < 20) this.renderingIntents.add(name);
  }

  private graphicsState(dict: PdfDict): void {
    const cos = this.cos;
    const smask = cos.get(dict, 'SMask');
    const blend = cos.get(dict, 'BM');
    const blendName = nameOf(Array.isArray(blend) ? cos.resolve(blend[0]) : blend);
    if (blendName !== undefined && this.blendModes.size < 20) this.blendModes.add(blendName);
    const transfer2 = cos.get(dict, 'TR2');
    if (dict.has('TR') || (transfer2 !== undefined && nameOf(transfer2) !== 'Default'))
      this.transferFunctions = true;
    this.intent(cos.get(dict, 'RI'));
    const ca = [cos.get(dict, 'CA'), cos.get(dict, 'ca')];
    if (
      (smask !== undefined && nameOf(smask) !== 'None') ||
      (blendName !== undefined && blendName !== 'Normal' && blendName !== 'Compatible') ||
      // an opacity that rounds to 1 (0.9999999, a writer's float) composites as opaque
      ca.some((alpha) => typeof alpha === 'number' && alpha < OPAQUE)
    )
      this.transparency = true;
  }

  group(owner: PdfDict): void {
    const space = transparencyGroupSpace(this.cos, owner);
    if (space === undefined) return;
    this.transparency = true;
    const device = DEVICE[space ?? ''];
    if (device) this.groupDevices.add(device);
  }

  resources(value: PdfValue | undefined, depth = 0): void {
    const cos = this.cos;
    if (depth > MAX_NESTING || !this.once(value)) return;
    const resources = cos.resolve(value);
    if (!isDict(resources)) return;
    const each = (key: string, visit: (entry: PdfValue | undefined, raw: PdfValue) => void) => {
      const dict = cos.dict(resources, key);
      for (const raw of dict?.values() ?? []) if (this.once(raw)) visit(cos.resolve(raw), raw);
    };
    each('Font', (font) => {
      if (!isDict(font)) return;
      this.font(font);
      // a Type 3 font's glyphs are content streams with resources of their own
      if (nameOf(cos.get(font, 'Subtype')) === 'Type3')
        this.glyphResources.push({ value: font.get('Resources'), depth: depth + 1 });
    });
    each('ExtGState', (state) => {
      if (isDict(state)) this.graphicsState(state);
    });
    each('ColorSpace', (space) => this.addSpots(this.colorSpace(space, resources).spots));
    each('Shading', (shading) => {
      const dict = isStream(shading) ? shading.stream.dict : isDict(shading) ? shading : undefined;
      this.addSpots(this.colorSpace(dict?.get('ColorSpace'), resources).spots);
    });
    // XObjects before patterns, as pdffonts lists their fonts
    each('XObject', (xobject) => {
      if (!isStream(xobject)) return;
      const dict = xobject.stream.dict;
      const subtype = nameOf(cos.get(dict, 'Subtype'));
      if (subtype === 'Image') this.image(dict, resources);
      else if (subtype === 'Form') {
        this.group(dict);
        this.resources(dict.get('Resources'), depth + 1);
      }
    });
    each('Pattern', (pattern) => {
      if (isStream(pattern)) this.resources(pattern.stream.dict.get('Resources'), depth + 1);
    });
  }

  /** The resources of the Type 3 fonts met, last: pdffonts lists none of their fonts. */
  glyphs(): void {
    this.listing = false;
    for (let next = this.glyphResources.shift(); next; next = this.glyphResources.shift())
      this.resources(next.value, next.depth);
  }

  /**
   * Annotation appearances (a form field's font is drawn only there): each annotation's selected one first,
   * whose fonts pdffonts lists, then the other states of `/AP /N`, whose fonts it does not.
   */
  appearances(page: PdfDict): void {
    const cos = this.cos;
    const annotations = cos
      .array(page, 'Annots')
      .map((raw) => cos.resolve(raw))
      .filter(isDict);
    const others: (PdfValue | undefined)[] = [];
    for (const annotation of annotations) {
      const selected = cos.resolve(selectedAppearance(cos, annotation));
      if (isStream(selected)) this.resources(selected.stream.dict.get('Resources'), 1);
      const normal = cos.get(cos.dict(annotation, 'AP'), 'N');
      if (isDict(normal))
        for (const value of normal.values()) {
          const stream = cos.resolve(value);
          if (stream !== selected) others.push(stream);
        }
    }
    const listing = this.listing;
    this.listing = false;
    for (const stream of others) if (isStream(stream)) this.resources(stream.stream.dict.get('Resources'), 1);
    this.listing = listing;
  }
}

/** One page's structure; `objectNumber` is the page dictionary's, as PDFium names it. */
export function pageStructure(cos: CosFile, objectNumber: number): PageStructure | undefined {
  const page = cos.object(objectNumber);
  if (!isDict(page)) return undefined;
  const walk = new ResourceWalk(cos);
  walk.resources(cos.inherited(page, 'Resources'));
  walk.appearances(page);
  walk.glyphs();
  walk.group(page);
  const content = scanPageContent(cos, page, cos.inherited(page, 'Resources'));
  return {
    boxes: pageBoxes(cos, page),
    transparency: walk.transparency,
    group_color_space: transparencyGroupSpace(cos, page) ?? null,
    group_device_colors: [...walk.groupDevices].sort(),
    spot_colors: [...walk.spots].sort(),
    fonts: walk.fonts,
    listed_fonts: walk.listed,
    images: walk.images,
    blend_modes: [...walk.blendModes].sort(),
    transfer_functions: walk.transferFunctions,
    rendering_intents: [...walk.renderingIntents].sort(),
    interpolated_images: walk.interpolatedImages,
    tab_order: nameOf(cos.get(page, 'Tabs')) ?? null,
    annotation_details: pageAnnotations(cos, page),
    content,
  };
}

/**
 * The family of the blending colour space of `owner`'s transparency group (`/Group /CS`: a name or an
 * array's first name); null when the group names none, undefined when `owner` has no transparency group.
 */
function transparencyGroupSpace(cos: CosFile, owner: PdfDict): string | null | undefined {
  const group = cos.dict(owner, 'Group');
  if (nameOf(cos.get(group, 'S')) !== 'Transparency') return undefined;
  const space = cos.get(group, 'CS');
  return nameOf(space) ?? nameOf(Array.isArray(space) ? cos.resolve(space[0]) : undefined) ?? null;
}

/** Fonts of the interactive form's default resources: what a filled-in field draws with. */
export function formFonts(cos: CosFile): Map<string, ListedFont> {
  const walk = new ResourceWalk(cos);
  walk.resources(cos.dict(cos.catalog, 'AcroForm')?.get('DR'));
  return walk.fonts;
}
