import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { packetWith, withXmp } from './xmp-fixtures.js';

/** A packet whose XML is not well-formed: an element closed by another name. */
export const notWellFormed = (part: 1 | 2 | 3) =>
  pdfaFile(part, { xmpPacket: packetWith(part, '</rdf:Description>', '</rdf:Descriptio>') });

/** A property of a schema neither predefined nor described. */
export const undescribed = (part: 1 | 2 | 3) => withXmp(part, '<fix:size>12</fix:size>', 'fix');

/** dc:title written as simple text, not the Lang Alt its schema gives it. */
export const mistyped = (part: 1 | 2 | 3) => withXmp(part, '<dc:title>Annual report</dc:title>', 'dc');

/**
 * Predefined properties written as their types ask, in the RDF forms XMP allows: a Lang Alt whose items
 * inherit their language from the rdf:Alt, an item qualified through rdf:value, a structure written with
 * rdf:parseType="Resource" and one as an rdf:Description, a URI as rdf:resource.
 */
export const welltyped = (part: 1 | 2 | 3) =>
  withXmp(
    part,
    `<dc:title><rdf:Alt xml:lang="en"><rdf:li>Annual report</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default" rdf:parseType="Resource"><rdf:value>Figures</rdf:value></rdf:li></rdf:Alt></dc:description>
<dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>
<xmp:CreateDate>2024-01-01T11:00:00Z</xmp:CreateDate>
<xmp:BaseURL rdf:resource="http://example.com/"/>
<xmpMM:DerivedFrom rdf:parseType="Resource"><stRef:documentID>uuid:1</stRef:documentID></xmpMM:DerivedFrom>
<xmpTPg:MaxPageSize><rdf:Description stDim:w="8.5" stDim:h="11" stDim:unit="inch"/></xmpTPg:MaxPageSize>`,
    'dc',
    'xmp',
    'xmpMM',
    'stRef',
    'xmpTPg',
    'stDim',
  );

export const fixtures: FixturePairs = {
  1: { pass: (part) => pdfaFile(part), fail: notWellFormed },
  2: { pass: welltyped, fail: undescribed },
  3: { pass: welltyped, fail: mistyped },
};
