/**
 * What the catalog's XMP packet says for PDF/UA (ISO 14289-1 clause 5 and 7.1): the PDF/UA identification
 * schema's properties, each with the prefix it is written with, and the document's title (dc:title).
 */
import { type XmpPacket, type XmpValue } from '../../xmp/rdf.js';
import type { ModelNode } from '../node.js';

const PDFUAID = 'http://www.aiim.org/pdfua/ns/id/';
const DC = 'http://purl.org/dc/elements/1.1/';

/** One property of an identification schema, as written. */
export interface PdfuaIdentificationEntry {
  /** A simple value's text, trimmed ('' for another shape). */
  text: string;
  prefix: string;
}

/** The PDF/UA identification of the catalog's XMP packet (its `http://www.aiim.org/pdfua/ns/id/` properties). */
export interface PdfuaIdentificationNode extends ModelNode {
  /** Any property of the identification schema is there. */
  present: boolean;
  part: PdfuaIdentificationEntry | null;
  amd: PdfuaIdentificationEntry | null;
  corr: PdfuaIdentificationEntry | null;
}

/** The catalog's XMP packet, as read: the document-level properties a rule asks for by their absence. */
export interface CatalogXmpNode extends ModelNode {
  /** dc:title (in the Dublin Core namespace, whatever its prefix): the text of each item; null when absent. */
  dcTitle: { prefix: string; texts: string[] } | null;
}

export function pdfuaIdentification(packet: XmpPacket, where: string): PdfuaIdentificationNode {
  const entry = (name: string): PdfuaIdentificationEntry | null => {
    const property = packet.properties.find((p) => p.namespace === PDFUAID && p.name === name);
    if (!property) return null;
    return {
      text: property.value.kind === 'simple' ? property.value.text.trim() : '',
      prefix: property.prefix,
    };
  };
  return {
    where,
    present: packet.properties.some((p) => p.namespace === PDFUAID),
    part: entry('part'),
    amd: entry('amd'),
    corr: entry('corr'),
  };
}

/** A file with no metadata stream identifies no PDF/UA part either. */
export const noPdfuaIdentification = (where: string): PdfuaIdentificationNode => ({
  where,
  present: false,
  part: null,
  amd: null,
  corr: null,
});

function texts(value: XmpValue): string[] {
  if (value.kind === 'simple') return [value.text];
  if (value.kind === 'array')
    return value.items.flatMap((item) => (item.kind === 'simple' ? [item.text] : []));
  return [];
}

export function catalogXmp(packet: XmpPacket, where: string): CatalogXmpNode {
  const title = packet.properties.find((p) => p.namespace === DC && p.name === 'title');
  return { where, dcTitle: title ? { prefix: title.prefix, texts: texts(title.value) } : null };
}
