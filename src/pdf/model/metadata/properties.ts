/**
 * A top-level XMP property beside the schemas that could define it: whether the XMP Specification of an
 * edition predefines it (2004 for PDF/A-1, 2005 for PDF/A-2 and -3, each with the PDF/A identification and
 * extension schemas), whether an extension schema describes it, and whether its value is of the type the
 * schema gives it. What cannot be told for certain (a type no schema defines) is left unknown, and a value is
 * read as the reference validator reads it (closed choices by their base type): a value it accepts is never
 * called mistyped here.
 */
import { type PropertyType, XMP_2004, XMP_2005, type XmpDefinitions } from '../../xmp/predefined-schemas.js';
import type { XmpProperty, XmpValue } from '../../xmp/rdf.js';
import { AS_VALIDATORS_READ, canonicalType, type StructuredTypes, typeFault } from '../../xmp/value-types.js';
import { type Described, EXTENSION, isDefinedType, typesFor } from './extension-schema.js';

export type XmpEdition = 'XMP 2004' | 'XMP 2005';
export const EDITIONS: Readonly<Record<XmpEdition, XmpDefinitions>> = {
  'XMP 2004': XMP_2004,
  'XMP 2005': XMP_2005,
};

/** A property as one edition's schemas see it. */
export interface PropertyInEdition {
  /** The edition's predefined schemas define this property (its namespace and name). */
  predefined: boolean;
  /** The edition predefines a schema of the property's namespace (though maybe not this name). */
  schemaPredefined: boolean;
  /** The title of that schema ("Dublin Core"), when there is one. */
  schemaTitle: string | null;
  /**
   * The type the value should have, as written: the packet's extension schema's (or, for a packet other than
   * the catalog's, the catalog packet's) when it names a defined type, else the predefined one.
   */
  type: string | null;
  /**
   * Why the value is not of that type; null when it is; undefined when that cannot be told (no type is
   * known, or the type or a part of it is one no schema defines).
   */
  valueFault: string | null | undefined;
}

function valueFault(value: XmpValue, spec: PropertyType, types: StructuredTypes): string | null | undefined {
  if (!isDefinedType(spec.type, types)) return undefined;
  return typeFault(value, { type: canonicalType(spec.type, types) }, types, AS_VALIDATORS_READ);
}

/** What judging a packet's properties in one edition needs: its schemas, what is described, all types. */
export interface EditionContext {
  edition: XmpEdition;
  described: Described;
  alsoDescribed: Described | null;
  types: StructuredTypes;
}

/**
 * The context of a packet in `edition`, with what the packet's own extension schemas describe (`described`)
 * and, for a packet other than the catalog's, what the catalog's describe too (`alsoDescribed`).
 */
export function editionContext(
  edition: XmpEdition,
  described: Described,
  alsoDescribed: Described | null,
): EditionContext {
  const types = typesFor(EDITIONS[edition], {
    properties: described.properties,
    types: { ...alsoDescribed?.types, ...described.types },
  });
  return { edition, described, alsoDescribed, types };
}

/** `property` as the context's edition sees it. */
export function inEdition(property: XmpProperty, context: EditionContext): PropertyInEdition {
  const { described, alsoDescribed, types } = context;
  if (property.namespace === EXTENSION)
    return {
      predefined: true,
      schemaPredefined: true,
      schemaTitle: 'PDF/A extension schema container',
      type: null,
      valueFault: null,
    };
  const schema = EDITIONS[context.edition].schemas.find((s) => s.namespace === property.namespace);
  const predefinedSpec = schema?.properties[property.name];
  // the packet's own description first, then the catalog packet's, then the predefined type: an extension
  // schema may give a predefined property another type; one naming a type no one defines does not count
  const written = [described, alsoDescribed]
    .map((d) => d?.properties.get(property.namespace)?.get(property.name))
    .filter((type): type is string => type !== undefined);
  const extensionType = written.find((type) => isDefinedType(type, types));
  const spec: PropertyType | undefined = extensionType
    ? { type: extensionType }
    : (predefinedSpec ?? (written[0] ? { type: written[0] } : undefined));
  return {
    predefined: predefinedSpec !== undefined,
    schemaPredefined: schema !== undefined,
    schemaTitle: schema?.title ?? null,
    type: spec?.type ?? null,
    valueFault: spec ? valueFault(property.value, spec, types) : undefined,
  };
}
