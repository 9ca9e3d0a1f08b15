/**
 * What the metadata rules' fixture pairs share (ISO 19005-1 6.7, ISO 19005-2 and -3 6.6): a packet with a
 * complete PDF/A extension schema that a property uses, and ways to break one thing of it at a time.
 */
import { latin1, pdfaFile, type PdfaEdits, xmpPacket } from '../../../pdfa-file.js';

export type Part = 1 | 2 | 3;

export const NS = {
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  xmpMM: 'http://ns.adobe.com/xap/1.0/mm/',
  stRef: 'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
  xmpTPg: 'http://ns.adobe.com/xap/1.0/t/pg/',
  stDim: 'http://ns.adobe.com/xap/1.0/sType/Dimensions#',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
  pdfaType: 'http://www.aiim.org/pdfa/ns/type#',
  pdfaField: 'http://www.aiim.org/pdfa/ns/field#',
  fix: 'http://example.com/ns/fixture/',
  ext: 'http://example.com/ns/extent#',
} as const;

export const xmlns = (...prefixes: (keyof typeof NS)[]): string =>
  prefixes.map((prefix) => `xmlns:${prefix}="${NS[prefix]}"`).join(' ');

/**
 * An extension schema describing `fix:size` of the value type `Extent` (one field, `ext:width`) and `fix:kind`
 * (a closed choice of Text), and the properties written with it.
 */
export const EXTENSION = `<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Fixture schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>${NS.fix}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fix</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaProperty:name>size</pdfaProperty:name>
<pdfaProperty:valueType>Extent</pdfaProperty:valueType>
<pdfaProperty:category>external</pdfaProperty:category>
<pdfaProperty:description>The size of the thing</pdfaProperty:description>
</rdf:li><rdf:li rdf:parseType="Resource">
<pdfaProperty:name>kind</pdfaProperty:name>
<pdfaProperty:valueType>Closed Choice of Text</pdfaProperty:valueType>
<pdfaProperty:category>internal</pdfaProperty:category>
<pdfaProperty:description>What kind of thing it is</pdfaProperty:description>
</rdf:li></rdf:Seq></pdfaSchema:property>
<pdfaSchema:valueType><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaType:type>Extent</pdfaType:type>
<pdfaType:namespaceURI>${NS.ext}</pdfaType:namespaceURI>
<pdfaType:prefix>ext</pdfaType:prefix>
<pdfaType:description>An extent</pdfaType:description>
<pdfaType:field><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaField:name>width</pdfaField:name>
<pdfaField:valueType>Integer</pdfaField:valueType>
<pdfaField:description>Its width</pdfaField:description>
</rdf:li></rdf:Seq></pdfaType:field>
</rdf:li></rdf:Seq></pdfaSchema:valueType>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
<fix:size rdf:parseType="Resource"><ext:width>12</ext:width></fix:size>
<fix:kind>round</fix:kind>`;

/** The namespaces EXTENSION uses, declared. */
export const EXTENSION_NAMESPACES = xmlns(
  'pdfaExtension',
  'pdfaSchema',
  'pdfaProperty',
  'pdfaType',
  'pdfaField',
  'fix',
  'ext',
);

/** A file whose packet has the extension schema, changed by `change` (and with `namespaces` declared too). */
export const withExtension = (
  part: Part,
  change: (xmp: string) => string = (x) => x,
  namespaces = '',
): Uint8Array =>
  pdfaFile(part, {
    xmp: change(EXTENSION),
    xmpNamespaces: `${EXTENSION_NAMESPACES}${namespaces ? ` ${namespaces}` : ''}`,
  });

/** `prefix:name` written as `wrong:name` instead, `wrong` bound to the same namespace. */
export function wrongPrefix(part: Part, prefix: keyof typeof NS, name: string): Uint8Array {
  return withExtension(
    part,
    (xmp) =>
      xmp
        .replaceAll(`<${prefix}:${name}>`, `<wrong:${name}>`)
        .replaceAll(`</${prefix}:${name}>`, `</wrong:${name}>`),
    `xmlns:wrong="${NS[prefix]}"`,
  );
}

/** The default packet with `from` replaced by `to` (the PDF/A identification, its header, its syntax). */
export const packetWith = (
  part: Part,
  from: string | RegExp,
  to: string,
  edits: Pick<PdfaEdits, 'xmp' | 'xmpNamespaces'> = {},
): string => {
  const packet = xmpPacket(part, edits);
  const changed = packet.replace(from, to);
  if (changed === packet) throw new Error(`the packet has no ${String(from)}`);
  return changed;
};

/** A file whose bytes have `from` replaced by `to`, of the same length (so that offsets hold). */
export function replacingBytes(file: Uint8Array, from: string, to: string): Uint8Array {
  if (from.length !== to.length) throw new Error('a replacement keeps the length');
  const text = Buffer.from(file).toString('latin1');
  const at = text.indexOf(from);
  if (at < 0) throw new Error(`the file has no ${from}`);
  const out = new Uint8Array(file);
  out.set(latin1(to), at);
  return out;
}

/** The part's file with the XMP properties `xmp` (their namespaces declared). */
export const withXmp = (part: Part, xmp: string, ...prefixes: (keyof typeof NS)[]): Uint8Array =>
  pdfaFile(part, { xmp, xmpNamespaces: xmlns(...prefixes) });
