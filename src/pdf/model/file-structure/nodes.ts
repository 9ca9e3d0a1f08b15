import type { ModelNode } from '../node.js';
import type { CatalogKinds } from './catalog.js';

/** The file as a whole: its header, its end, and what its trailers and cross-reference sections say. */
export interface FileNode extends ModelNode {
  /** Where `%PDF-` is, in the first KiB; -1 when it is not there. */
  headerOffset: number;
  /** What follows `%PDF-` on the header line (`1.7`), or null. */
  version: string | null;
  /** The header line ends with one end-of-line marker (CR, LF or CR LF) and the next line starts at once. */
  singleEol: boolean;
  /** The first four bytes after the `%` of the line after the header, or fewer when the file is shorter. */
  commentBytes: number[];
  /** Bytes after the last `%%EOF` other than one end-of-line marker (CR, LF or CR LF); null when no `%%EOF`. */
  bytesAfterEof: number | null;
  /** The first object is a linearization dictionary whose /L is the file's length (or that has no /L). */
  linearized: boolean;
  /**
   * The /ID of the trailer last in the file (ISO 32000-1 7.5.5): each item's bytes in hex ('' for an item
   * that is no string); [] when the value is not an array; null when there is no /ID.
   */
  lastTrailerId: string[] | null;
  /** The same, of the first-page trailer of a linearized file (its first cross-reference section); else null. */
  firstPageTrailerId: string[] | null;
  /** Cross-reference streams among the sections read, a hybrid file's /XRefStm counted. */
  xrefStreams: number;
  /** Objects the cross-reference lists as in use. */
  indirectObjects: number;
}

/** One trailer dictionary: a cross-reference table's, or a cross-reference stream's own dictionary. */
export interface TrailerNode extends ModelNode {
  keys: string[];
}

/** A cross-reference table as written (ISO 32000-1 7.5.4); cross-reference streams have no such syntax. */
export interface XrefSectionNode extends ModelNode {
  offset: number;
  /** The white space between the `xref` keyword and the first subsection header, as written. */
  afterKeyword: string;
  /** Per subsection header (the first few): the white space between its first object number and its count. */
  headerSeparators: string[];
}

/** An indirect object written at an offset of the file (not in an object stream): its frame. */
export interface IndirectObjectNode extends ModelNode {
  num: number;
  /** The white space between the object number and the generation number, as written. */
  afterNumber: string;
  /** Between the generation number and `obj`. */
  afterGeneration: string;
  /** The byte before the object number is CR or LF (true at the file's start). */
  eolBeforeNumber: boolean;
  /** The byte after `obj` is CR or LF. */
  eolAfterObj: boolean;
  /** The byte before `endobj` is CR or LF; null when no `endobj` was found where the object ends. */
  eolBeforeEndobj: boolean | null;
  /** The byte after `endobj` is CR or LF (or the file ends there); null when no `endobj` was found. */
  eolAfterEndobj: boolean | null;
}

/** A stream object: its dictionary's keys and its data's frame as written. */
export interface StreamNode extends ModelNode {
  num: number;
  keys: string[];
  /** /Length as given (resolved); undefined when it is not a non-negative integer. */
  lengthDeclared: number | undefined;
  /**
   * The bytes from the start of the data to the end-of-line marker before `endstream` (or to `endstream`
   * when none is there); undefined when no `endstream` is found.
   */
  lengthActual: number | undefined;
  /** What follows the `stream` keyword: CR LF, LF, CR alone, or something else (`none`). */
  afterStreamKeyword: 'CRLF' | 'LF' | 'CR' | 'none';
  /** An end-of-line marker is right before `endstream`; undefined when no `endstream` was found. */
  eolBeforeEndstream: boolean | undefined;
}

/** One filter a stream names in /Filter. */
export interface FilterNode extends ModelNode {
  name: string;
  /** The /Name of its decode parameters (a Crypt filter's); undefined when none is given. */
  parmsName: string | undefined;
}

/** One filter an inline image names in /F or /Filter, as written (abbreviations too). */
export interface InlineImageFilterNode extends ModelNode {
  name: string;
}

/**
 * A number token in an object. Of a content stream (mostly numbers), only its extremes: its least and
 * greatest integers, its least and greatest reals and its real nearest to 0 (other than 0), each once.
 * Strings, names, arrays and dictionaries of a content stream are told once per distinct node.
 */
export interface NumberNode extends ModelNode {
  value: number;
  /** Written with a decimal point. */
  real: boolean;
}

/** A string token, in an object or in content. */
export interface StringNode extends ModelNode {
  /** Its length in bytes, escapes decoded. */
  bytes: number;
  /** Written in hexadecimal `<...>`. */
  hex: boolean;
  /** A hexadecimal string's digits. */
  hexDigits: number;
  /** A hexadecimal string holds nothing but digits and white space. */
  hexOnlyDigits: boolean;
}

/** A name token, in an object or in content. */
export interface NameNode extends ModelNode {
  /** Its length in bytes, `#xx` escapes decoded. */
  bytes: number;
}

export interface ArrayNode extends ModelNode {
  items: number;
}

export interface DictionaryNode extends ModelNode {
  entries: number;
}

/** A `q` operator in a content stream. */
export interface GraphicsStateSaveNode extends ModelNode {
  /** The nesting this `q` opens (1 for the outermost), counted in the stream it is in. */
  nesting: number;
}

/** A page boundary (ISO 32000-1 14.11.2): MediaBox, CropBox, BleedBox, TrimBox, ArtBox, as in force. */
export interface PageBoxNode extends ModelNode {
  box: string;
  width: number;
  height: number;
}

/**
 * A name that stands for text: a font's name (/BaseFont, /FontName), a colorant of a Separation or DeviceN
 * colour space, a structure element's type (/S).
 */
export interface TextNameNode extends ModelNode {
  /** What the name names. */
  role: 'font name' | 'colorant' | 'structure type';
  /** The name's bytes, `#xx` escapes decoded, one char per byte. */
  name: string;
  /** The bytes are a well-formed UTF-8 sequence. */
  validUtf8: boolean;
}

/** The kinds of the file's syntax: the file, its trailers and sections, objects, streams and tokens. */
export interface FileStructureKinds extends CatalogKinds {
  file: FileNode;
  trailer: TrailerNode;
  xref_section: XrefSectionNode;
  indirect_object: IndirectObjectNode;
  stream: StreamNode;
  filter: FilterNode;
  inline_image_filter: InlineImageFilterNode;
  number: NumberNode;
  string: StringNode;
  name: NameNode;
  array: ArrayNode;
  dictionary: DictionaryNode;
  graphics_state_save: GraphicsStateSaveNode;
  page_box: PageBoxNode;
  text_name: TextNameNode;
}
