/**
 * The metadata kinds: the catalog's Metadata stream and every other one in the file, the XMP packet each
 * holds (its header, its encoding, whether it is well-formed), each packet's properties beside the schemas
 * that define them, the PDF/A extension schemas a packet writes, the catalog packet's PDF/A identification,
 * and the document information dictionary beside its XMP analogues.
 */
import type { CosFile } from '../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, PdfRef, type PdfStream, textString } from '../cos/syntax.js';
import { xmpEncoding, xmpText } from '../xmp-encoding.js';
import { type InfoAnalogue, infoAnalogues } from '../xmp/info-agreement.js';
import { RDF, readXmp, type XmpPacket, type XmpValue } from '../xmp/rdf.js';
import type { Builders, Emitter, ModelNode } from './node.js';
import {
  bothDescribed,
  type Described,
  describedBy,
  EXTENSION,
  EXTENSION_STRUCTURES,
  type ExtensionRole,
  isDefinedType,
  typesFor,
} from './metadata/extension-schema.js';
import { packetHeader, type PacketHeader } from './metadata/packet-header.js';
import {
  catalogXmp,
  type CatalogXmpNode,
  noPdfuaIdentification,
  pdfuaIdentification,
  type PdfuaIdentificationNode,
} from './metadata/pdfua.js';
import {
  EDITIONS,
  editionContext,
  inEdition,
  type PropertyInEdition,
  type XmpEdition,
} from './metadata/properties.js';

export type { ExtensionRole } from './metadata/extension-schema.js';
export type { InfoAnalogue } from '../xmp/info-agreement.js';
export type { PropertyInEdition, XmpEdition } from './metadata/properties.js';
export type { CatalogXmpNode, PdfuaIdentificationNode } from './metadata/pdfua.js';

/** A metadata stream: the catalog's (emitted even when the catalog has none) or another object's. */
export interface MetadataStreamNode extends ModelNode {
  /** The catalog's `/Metadata`, or another dictionary's. */
  ofCatalog: boolean;
  /** The entry is there and is a stream (for the catalog: false when it has no `/Metadata` at all). */
  isStream: boolean;
  /** `/Type` and `/Subtype` of the stream dictionary, as names; null when absent or not names. */
  type: string | null;
  subtype: string | null;
  /** The names of `/Filter`, in order (empty when the stream is not filtered). */
  filters: string[];
}

/** The XMP packet a metadata stream holds, when its data can be decoded. */
export interface XmpPacketNode extends ModelNode {
  ofCatalog: boolean;
  /** The encoding the bytes are in, told by a byte order mark or by how the first `<` is written. */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';
  /** Every byte sequence is a character of that encoding. */
  bytesValid: boolean;
  /** The `<?xpacket begin … ?>` header, with its attributes; null when there is none. */
  header: PacketHeader | null;
  /** Well-formed XML holding an `rdf:RDF` element; when not, why (the parser's words). */
  wellFormed: boolean;
  notWellFormed: string | null;
  /** The XML is well-formed but holds no `rdf:RDF` (a packet with no properties at all). */
  noRdf: boolean;
}

/** The shape an XMP value is written in. */
export type ValueShape = 'text' | 'Bag' | 'Seq' | 'Alt' | 'structure' | 'malformed';

/** A top-level property of a packet. */
export interface XmpPropertyNode extends ModelNode {
  ofCatalog: boolean;
  namespace: string;
  prefix: string;
  name: string;
  shape: ValueShape;
  /** The packet's own extension schemas describe it. */
  describedInPacket: boolean;
  /** The catalog packet's extension schemas describe it (for a property of another packet). */
  describedInCatalogPacket: boolean;
  /** As each edition of the XMP Specification sees it. */
  editions: Record<XmpEdition, PropertyInEdition>;
}

/** One field of an extension schema structure, as written. */
export interface ExtensionFieldReading {
  prefix: string;
  shape: ValueShape;
  /** A simple value's text, trimmed; null for another shape. */
  text: string | null;
  /** Every item of an array is a structure (true for an empty array or another shape). */
  itemsAreStructures: boolean;
}

/**
 * An object of a PDF/A extension schema: the container (`pdfaExtension:schemas`), a schema, a property, a
 * value type, or a field of a value type.
 */
export interface ExtensionObjectNode extends ModelNode {
  role: ExtensionRole;
  /** How the object is written: the container as an array, the others as structures. */
  shape: ValueShape;
  /** The prefix the container property is written with (for the others, each field has its own). */
  prefix: string;
  /** The container property's local name (`schemas`); for the others, null. */
  name: string | null;
  /** The fields the structure defines that are written in it, by name. */
  fields: Partial<Record<string, ExtensionFieldReading>>;
  /** Fields written in it that the structure does not define (another namespace or name), as prefix:name. */
  undefinedFields: string[];
  /** For a property or a field: whether its `valueType` names a type each edition (or the packet) defines. */
  valueTypeDefined: Record<XmpEdition, boolean> | null;
}

/** One property of the PDF/A identification schema, as written in the catalog's packet. */
export interface IdentificationEntry {
  text: string;
  prefix: string;
}

/** The PDF/A identification of the catalog's XMP packet (its `http://www.aiim.org/pdfa/ns/id/` properties). */
export interface PdfaIdentificationNode extends ModelNode {
  /** Any property of the identification schema is there. */
  present: boolean;
  part: IdentificationEntry | null;
  conformance: IdentificationEntry | null;
  amd: IdentificationEntry | null;
  corr: IdentificationEntry | null;
}

/** The document information dictionary, each text entry that has an XMP analogue beside it. */
export interface InfoNode extends ModelNode {
  analogues: InfoAnalogue[];
}

export interface MetadataKinds {
  metadata_stream: MetadataStreamNode;
  xmp_packet: XmpPacketNode;
  xmp_property: XmpPropertyNode;
  extension_object: ExtensionObjectNode;
  pdfa_identification: PdfaIdentificationNode;
  pdfua_identification: PdfuaIdentificationNode;
  catalog_xmp: CatalogXmpNode;
  info: InfoNode;
}

const MAX_XMP_BYTES = 4 * 1024 * 1024;
/** The most metadata streams other than the catalog's that are read (a page's, a font's, an image's). */
const MAX_OTHER_PACKETS = 200;
/** The most bytes of XMP read from the other metadata streams, all together (parsing costs about 1 s a MiB). */
const MAX_OTHER_XMP_BYTES = 8 * 1024 * 1024;
/** The most objects looked through for other metadata streams. */
const MAX_OBJECTS_SCANNED = 2_000_000;
const MAX_EXTENSION_OBJECTS = 10_000;

const PDFAID = 'http://www.aiim.org/pdfa/ns/id/';
const XML = 'http://www.w3.org/XML/1998/namespace';

function shapeOf(value: XmpValue): ValueShape {
  if (value.kind === 'simple') return 'text';
  if (value.kind === 'array') return value.form;
  return value.kind === 'struct' ? 'structure' : 'malformed';
}

function filtersOf(cos: CosFile, dict: PdfDict): string[] {
  const filter = cos.get(dict, 'Filter');
  // a null entry is no entry (ISO 32000-1, 7.3.9)
  const list = Array.isArray(filter) ? filter : filter === undefined || filter === null ? [] : [filter];
  return list.map((f) => nameOf(cos.resolve(f)) ?? '?');
}

function streamNode(cos: CosFile, stream: { stream: PdfStream }, ofCatalog: boolean, where: string) {
  const dict = stream.stream.dict;
  return {
    where,
    ofCatalog,
    isStream: true,
    type: nameOf(cos.get(dict, 'Type')) ?? null,
    subtype: nameOf(cos.get(dict, 'Subtype')) ?? null,
    filters: filtersOf(cos, dict),
  };
}

/** A packet read from its bytes, with what its extension schemas describe. */
interface ReadPacket {
  packet: XmpPacket;
  described: Described;
}

function readPacket(
  bytes: Uint8Array,
  ofCatalog: boolean,
  where: string,
  out: Emitter<MetadataKinds>,
): ReadPacket {
  const text = xmpText(bytes);
  const packet = readXmp(text);
  if (out.wants('xmp_packet')) {
    const encoding = xmpEncoding(bytes);
    out.emit('xmp_packet', {
      where,
      ofCatalog,
      encoding,
      bytesValid: validIn(bytes, encoding),
      header: packetHeader(text),
      wellFormed: packet.wellFormed,
      notWellFormed: packet.wellFormed ? null : packet.reason,
      noRdf: !packet.wellFormed && packet.noRdf === true,
    });
  }
  const containers = packet.properties.filter((p) => p.namespace === EXTENSION);
  return { packet, described: describedBy(containers) };
}

function validIn(bytes: Uint8Array, encoding: XmpPacketNode['encoding']): boolean {
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return bytes.length % 4 === 0;
  try {
    new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function emitProperties(
  read: ReadPacket,
  catalog: ReadPacket | null,
  ofCatalog: boolean,
  where: string,
  out: Emitter<MetadataKinds>,
): void {
  const also = ofCatalog ? null : (catalog?.described ?? null);
  const of2004 = editionContext('XMP 2004', read.described, null);
  const of2005 = editionContext('XMP 2005', read.described, also);
  for (const property of read.packet.properties) {
    // RDF's and XML's own names are syntax, not properties of a schema
    if (property.namespace === RDF || property.namespace === XML) continue;
    const described = (d: Described | null) =>
      d?.properties.get(property.namespace)?.has(property.name) ?? false;
    out.emit('xmp_property', {
      where: `${where}, ${property.prefix}:${property.name}`,
      ofCatalog,
      namespace: property.namespace,
      prefix: property.prefix,
      name: property.name,
      shape: shapeOf(property.value),
      describedInPacket: described(read.described),
      describedInCatalogPacket: described(also),
      editions: {
        'XMP 2004': inEdition(property, of2004),
        'XMP 2005': inEdition(property, of2005),
      },
    });
  }
}

/** The extension schema objects of a packet, container first, each followed by what it nests. */
function emitExtensionObjects(
  read: ReadPacket,
  catalog: ReadPacket | null,
  where: string,
  out: Emitter<MetadataKinds>,
) {
  const described =
    catalog && catalog !== read ? bothDescribed(catalog.described, read.described) : read.described;
  const types = {
    'XMP 2004': typesFor(EDITIONS['XMP 2004'], described),
    'XMP 2005': typesFor(EDITIONS['XMP 2005'], described),
  };
  let count = 0;
  const emit = (node: ExtensionObjectNode) => {
    if (count++ < MAX_EXTENSION_OBJECTS) out.emit('extension_object', node);
  };
  const nested = (value: XmpValue, role: ExtensionRole, at: string): void => {
    const structure = EXTENSION_STRUCTURES[role];
    const fields: Partial<Record<string, ExtensionFieldReading>> = {};
    const undefinedFields: string[] = [];
    const children: [XmpValue, ExtensionRole, string][] = [];
    for (const field of value.kind === 'struct' ? value.fields : []) {
      const spec = field.namespace === structure.namespace ? structure.fields[field.name] : undefined;
      if (!spec) {
        undefinedFields.push(`${field.prefix}:${field.name}`);
        continue;
      }
      const items = field.value.kind === 'array' ? field.value.items : [];
      fields[field.name] = {
        prefix: field.prefix,
        shape: shapeOf(field.value),
        text: field.value.kind === 'simple' ? field.value.text.trim() : null,
        itemsAreStructures: items.every((item) => item.kind === 'struct'),
      };
      const child = /^Seq (\w+)$/.exec(spec.type)?.[1] as ExtensionRole | undefined;
      if (child)
        items.forEach((item, i) =>
          children.push([item, child, `${at} ${field.prefix}:${field.name}[${i + 1}]`]),
        );
    }
    const valueType = fields.valueType?.text;
    emit({
      where: at,
      role,
      shape: shapeOf(value),
      prefix: '',
      name: null,
      fields,
      undefinedFields,
      valueTypeDefined:
        (role === 'property' || role === 'field') && valueType
          ? {
              'XMP 2004': isDefinedType(valueType, types['XMP 2004']),
              'XMP 2005': isDefinedType(valueType, types['XMP 2005']),
            }
          : null,
    });
    for (const [item, child, childAt] of children) nested(item, child, childAt);
  };
  for (const container of read.packet.properties.filter((p) => p.namespace === EXTENSION)) {
    const at = `${where}, ${container.prefix}:${container.name}`;
    const items = container.value.kind === 'array' ? container.value.items : [];
    emit({
      where: at,
      role: 'container',
      shape: shapeOf(container.value),
      prefix: container.prefix,
      name: container.name,
      fields: {},
      undefinedFields: container.name === 'schemas' ? [] : [`${container.prefix}:${container.name}`],
      valueTypeDefined: null,
    });
    if (container.name === 'schemas') items.forEach((item, i) => nested(item, 'schema', `${at}[${i + 1}]`));
  }
}

function identification(packet: XmpPacket): PdfaIdentificationNode {
  const entry = (name: string): IdentificationEntry | null => {
    const property = packet.properties.find((p) => p.namespace === PDFAID && p.name === name);
    if (!property) return null;
    return {
      text: property.value.kind === 'simple' ? property.value.text.trim() : '',
      prefix: property.prefix,
    };
  };
  return {
    where: "the catalog's XMP metadata",
    present: packet.properties.some((p) => p.namespace === PDFAID),
    part: entry('part'),
    conformance: entry('conformance'),
    amd: entry('amd'),
    corr: entry('corr'),
  };
}

/**
 * The document information dictionary's entries (ISO 32000-1, 14.3.3) as text, null for one whose value is
 * not a text string (a null value is no entry, 7.3.7); null when there is no dictionary.
 */
function infoEntries(cos: CosFile): Map<string, string | null> | null {
  const info = cos.resolve(cos.trailer.get('Info'));
  if (!isDict(info)) return null;
  const entries = new Map<string, string | null>();
  for (const key of info.keys()) {
    const value = cos.get(info, key);
    if (value === null || value === undefined) continue;
    entries.set(key, textString(value) ?? null);
  }
  return entries;
}

/** Metadata streams other dictionaries than the catalog name, by object number, in the file's order. */
function otherMetadataStreams(
  cos: CosFile,
  catalogMetadata: number | undefined,
): [number, { stream: PdfStream }][] {
  const found = new Map<number, { stream: PdfStream }>();
  let scanned = 0;
  for (const [num] of cos.listed()) {
    if (scanned++ >= MAX_OBJECTS_SCANNED || found.size >= MAX_OTHER_PACKETS) break;
    const value = cos.object(num);
    const dict = isDict(value) ? value : isStream(value) ? value.stream.dict : undefined;
    const metadata = dict?.get('Metadata');
    if (!(metadata instanceof PdfRef) || metadata.num === catalogMetadata || found.has(metadata.num))
      continue;
    if (nameOf(dict!.get('Type')) === 'Catalog') continue;
    const stream = cos.resolve(metadata);
    if (isStream(stream)) found.set(metadata.num, stream);
  }
  return [...found];
}

const WANTS_PACKETS = ['xmp_packet', 'xmp_property', 'extension_object'] as const;

function document(cos: CosFile, out: Emitter<MetadataKinds>): void {
  const catalog = cos.catalog;
  if (!catalog) return;
  const entry = catalog.get('Metadata');
  const metadata = cos.resolve(entry);
  const where = "the catalog's XMP metadata";
  if (out.wants('metadata_stream'))
    out.emit(
      'metadata_stream',
      isStream(metadata)
        ? streamNode(cos, metadata, true, "the catalog's metadata stream")
        : {
            where: "the catalog's /Metadata",
            ofCatalog: true,
            isStream: false,
            type: null,
            subtype: null,
            filters: [],
          },
    );
  const bytes = isStream(metadata) ? cos.streamBytes(metadata, MAX_XMP_BYTES) : undefined;
  const main = bytes ? readPacket(bytes, true, where, out) : null;
  // a packet with no rdf:RDF is read as empty metadata; one that is not XML is unknown, and judged by none
  const readable = main !== null && (main.packet.wellFormed || main.packet.noRdf === true);
  if (main && readable) {
    if (out.wants('xmp_property')) emitProperties(main, main, true, where, out);
    if (out.wants('extension_object')) emitExtensionObjects(main, main, where, out);
    if (out.wants('pdfa_identification')) out.emit('pdfa_identification', identification(main.packet));
    if (out.wants('pdfua_identification'))
      out.emit('pdfua_identification', pdfuaIdentification(main.packet, where));
    if (out.wants('catalog_xmp')) out.emit('catalog_xmp', catalogXmp(main.packet, where));
  }
  // with no metadata stream at all, the file identifies no part and level either
  if (!isStream(metadata) && out.wants('pdfa_identification'))
    out.emit('pdfa_identification', {
      where: 'the catalog (it has no XMP metadata)',
      present: false,
      part: null,
      conformance: null,
      amd: null,
      corr: null,
    });
  if (!isStream(metadata) && out.wants('pdfua_identification'))
    out.emit('pdfua_identification', noPdfuaIdentification('the catalog (it has no XMP metadata)'));
  if (out.wants('info') && (!isStream(metadata) || readable)) {
    const info = infoEntries(cos);
    const packet: XmpPacket = main?.packet.wellFormed ? main.packet : { wellFormed: true, properties: [] };
    if (info)
      out.emit('info', {
        where: 'the document information dictionary',
        analogues: infoAnalogues(info, packet),
      });
  }
  // the other metadata streams are read for their packets only (no rule judges their dictionaries)
  if (!WANTS_PACKETS.some((kind) => out.wants(kind))) return;
  const catalogNum = entry instanceof PdfRef ? entry.num : undefined;
  let budget = MAX_OTHER_XMP_BYTES;
  for (const [num, stream] of otherMetadataStreams(cos, catalogNum)) {
    const at = `the XMP metadata of object ${num}`;
    if (out.wants('metadata_stream'))
      out.emit('metadata_stream', streamNode(cos, stream, false, `object ${num}`));
    const data = cos.streamBytes(stream, Math.min(MAX_XMP_BYTES, budget));
    if (!data) continue;
    budget -= data.length;
    const read = readPacket(data, false, at, out);
    if (!read.packet.wellFormed) continue;
    if (out.wants('xmp_property')) emitProperties(read, main, false, at, out);
    if (out.wants('extension_object')) emitExtensionObjects(read, main, at, out);
  }
}

export const metadataBuilders: Builders<MetadataKinds> = {
  document: ({ cos }, out) => document(cos, out),
};
