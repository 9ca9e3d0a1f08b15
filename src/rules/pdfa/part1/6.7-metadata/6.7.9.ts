import type { XmpEdition, XmpPropertyNode } from '../../../../pdf/model/metadata.js';
import { rule, type Reason, type Rule, type Specification } from '../../../rule.js';

/** The rule that packets are well-formed XMP, as each part numbers it (6.7.9-1, 6.6.2.1-4). */
export const serializationRule = (specifications: Specification[], clause: string, test: number): Rule =>
  rule({
    specifications,
    clause,
    test,
    object: 'xmp_packet',
    check: 'xmp_packet',
    says: 'Each metadata stream holds well-formed XMP: XML 1.0 in the RDF/XML syntax',
    fault: (packet) => {
      // a packet with no rdf:RDF holds no property: the XMP Toolkit reads it as empty metadata
      if (packet.wellFormed || packet.noRdf) return undefined;
      return `it is not well-formed XML (${(packet.notWellFormed ?? '').slice(0, 160)})`;
    },
    fix: 'write the XMP packet again with an XMP library: it must be well-formed XML holding rdf:RDF',
  });

/** Why a property is of no schema the part accepts; `catalogToo`: a schema the catalog's packet describes counts. */
function unknownSchemaFault(
  property: XmpPropertyNode,
  edition: XmpEdition,
  catalogToo: boolean,
): string | undefined {
  const seen = property.editions[edition];
  if (seen.predefined || property.describedInPacket || (catalogToo && property.describedInCatalogPacket))
    return undefined;
  return seen.schemaPredefined
    ? `it is not a property of the ${seen.schemaTitle ?? ''} schema in ${edition}, and no extension schema describes it`
    : `its schema (${property.namespace.slice(0, 100)}) is neither predefined in ${edition} nor described by an extension schema`;
}

/** The two property rules of a part (of a predefined or described schema; of the schema's type). */
export const propertyRules = (
  specifications: Specification[],
  edition: XmpEdition,
  clause: string,
  first: number,
  catalogToo: boolean,
): Rule[] => [
  rule({
    specifications,
    clause,
    test: first,
    object: 'xmp_property',
    check: 'xmp_properties',
    says: `Each XMP property is of a schema predefined in ${edition} or described by an extension schema`,
    fault: (property) => unknownSchemaFault(property, edition, catalogToo),
    fix: 'describe the property in a PDF/A extension schema (pdfaExtension:schemas) in the packet, or remove it',
  }),
  rule({
    specifications,
    clause,
    test: first + 1,
    object: 'xmp_property',
    check: 'xmp_properties',
    says: `Each XMP property's value is of the type its schema (${edition} or an extension schema) gives it`,
    fault: (property) => {
      const seen = property.editions[edition];
      return seen.valueFault ? `its value ${seen.valueFault} (its type is ${seen.type ?? '?'})` : undefined;
    },
    fix: "write the property's value in the type its schema gives it (an rdf:Alt with xml:lang for Lang Alt, rdf:Seq or rdf:Bag for arrays)",
  }),
];

/** ISO 19005-1, 6.7.9 Validity. */
export const rules: Rule[] = [
  serializationRule(['ISO 19005-1'], '6.7.9', 1),
  ...propertyRules(['ISO 19005-1'], 'XMP 2004', '6.7.9', 2, false),
];
export const reasons: Reason[] = [];
