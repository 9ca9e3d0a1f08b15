/**
 * The PDF/A extension schema: the XMP schema (ISO 19005-1 6.7.8, ISO 19005-2 6.6.2.3.3) in which a packet
 * describes the schemas, properties and value types it uses beyond the predefined ones. Its five structures,
 * each in its own namespace with the prefix that namespace is written with, and their fields; and what a
 * packet's extension schemas describe, read from them.
 */
import type { PropertyType, StructuredType, XmpDefinitions } from '../../xmp/predefined-schemas.js';
import type { XmpProperty, XmpValue } from '../../xmp/rdf.js';
import { canonicalType, type StructuredTypes } from '../../xmp/value-types.js';

export const EXTENSION = 'http://www.aiim.org/pdfa/ns/extension/';
export const SCHEMA = 'http://www.aiim.org/pdfa/ns/schema#';
export const PROPERTY = 'http://www.aiim.org/pdfa/ns/property#';
export const TYPE = 'http://www.aiim.org/pdfa/ns/type#';
export const FIELD = 'http://www.aiim.org/pdfa/ns/field#';

/** The structures of the extension schema: the container and the four value types it nests. */
export type ExtensionRole = 'container' | 'schema' | 'property' | 'valueType' | 'field';

export interface ExtensionField {
  /** 'Text', 'URI', or 'Seq <role>' (a Seq of that structure). */
  type: string;
  required: boolean;
}

export interface ExtensionStructure {
  namespace: string;
  /** The prefix the namespace is written with. */
  prefix: string;
  fields: Readonly<Record<string, ExtensionField>>;
}

const text = (required = true): ExtensionField => ({ type: 'Text', required });

export const EXTENSION_STRUCTURES: Readonly<Record<ExtensionRole, ExtensionStructure>> = {
  container: {
    namespace: EXTENSION,
    prefix: 'pdfaExtension',
    fields: { schemas: { type: 'Bag schema', required: true } },
  },
  schema: {
    namespace: SCHEMA,
    prefix: 'pdfaSchema',
    fields: {
      schema: text(),
      namespaceURI: { type: 'URI', required: true },
      prefix: text(),
      property: { type: 'Seq property', required: false },
      valueType: { type: 'Seq valueType', required: false },
    },
  },
  property: {
    namespace: PROPERTY,
    prefix: 'pdfaProperty',
    fields: { name: text(), valueType: text(), category: text(), description: text() },
  },
  valueType: {
    namespace: TYPE,
    prefix: 'pdfaType',
    fields: {
      type: text(),
      namespaceURI: { type: 'URI', required: true },
      prefix: text(),
      description: text(),
      field: { type: 'Seq field', required: false },
    },
  },
  field: {
    namespace: FIELD,
    prefix: 'pdfaField',
    fields: { name: text(), valueType: text(), description: text() },
  },
};

/** What a packet's extension schemas describe: property value types by namespace and name, and value types. */
export interface Described {
  properties: Map<string, Map<string, string>>;
  types: Record<string, StructuredType>;
}

export const NOTHING_DESCRIBED: Described = { properties: new Map(), types: {} };

const textOf = (value: XmpValue | undefined) => (value?.kind === 'simple' ? value.text.trim() : undefined);
export const fieldOf = (value: XmpValue, namespace: string, name: string): XmpValue | undefined =>
  value.kind === 'struct'
    ? value.fields.find((field) => field.namespace === namespace && field.name === name)?.value
    : undefined;
const itemsOf = (value: XmpValue | undefined) => (value?.kind === 'array' ? value.items : []);

/** The properties and value types that `containers` (a packet's pdfaExtension:schemas) describe. */
export function describedBy(containers: readonly XmpProperty[]): Described {
  const properties = new Map<string, Map<string, string>>();
  const types: Record<string, StructuredType> = {};
  for (const container of containers)
    for (const schema of itemsOf(container.value)) {
      const namespace = textOf(fieldOf(schema, SCHEMA, 'namespaceURI'));
      if (!namespace) continue;
      const known = properties.get(namespace) ?? new Map<string, string>();
      properties.set(namespace, known);
      for (const property of itemsOf(fieldOf(schema, SCHEMA, 'property'))) {
        const name = textOf(fieldOf(property, PROPERTY, 'name'));
        const valueType = textOf(fieldOf(property, PROPERTY, 'valueType'));
        // the first description of a property is the one that counts
        if (name && valueType && !known.has(name)) known.set(name, valueType);
      }
      for (const valueType of itemsOf(fieldOf(schema, SCHEMA, 'valueType'))) {
        const name = textOf(fieldOf(valueType, TYPE, 'type'));
        const typeNamespace = textOf(fieldOf(valueType, TYPE, 'namespaceURI'));
        if (!name || !typeNamespace) continue;
        const fields: Record<string, PropertyType> = {};
        for (const field of itemsOf(fieldOf(valueType, TYPE, 'field'))) {
          const fieldName = textOf(fieldOf(field, FIELD, 'name'));
          const fieldType = textOf(fieldOf(field, FIELD, 'valueType'));
          if (fieldName && fieldType) fields[fieldName] = { type: fieldType };
        }
        types[name] = { namespace: typeNamespace, fields };
      }
    }
  return { properties, types };
}

/** What two packets describe together (a page's packet may use what the catalog's describes). */
export function bothDescribed(first: Described, second: Described): Described {
  const properties = new Map(first.properties);
  for (const [namespace, names] of second.properties)
    properties.set(namespace, new Map([...(properties.get(namespace) ?? []), ...names]));
  return { properties, types: { ...first.types, ...second.types } };
}

/** Every type a packet can use: the edition's, then those its extension schemas declare, canonically named. */
export function typesFor(definitions: XmpDefinitions, extension: Described): StructuredTypes {
  const all: Record<string, StructuredType> = { ...definitions.types, ...extension.types };
  for (const [name, type] of Object.entries(extension.types))
    all[name] = {
      namespace: type.namespace,
      fields: Object.fromEntries(
        Object.entries(type.fields).map(([field, spec]) => [field, { type: canonicalType(spec.type, all) }]),
      ),
    };
  return all;
}

/** The simple types of XMP, as `canonicalType` names them. */
const SIMPLE = new Set([
  ...['Text', 'URI', 'URL', 'XPath', 'MIMEType', 'ProperName', 'AgentName', 'RenditionClass', 'Locale'],
  ...['Date', 'Integer', 'Real', 'Boolean', 'Rational', 'GPSCoordinate', 'Lang Alt', 'Any'],
]);

/** Whether a value type as written names a type XMP or the packet defines (arrays and choices of one too). */
export function isDefinedType(written: string, types: StructuredTypes): boolean {
  let type = canonicalType(written, types);
  for (let depth = 0; depth < 4; depth++) {
    const item = /^(?:Bag|Seq|Alt) (.+)$/.exec(type)?.[1];
    if (item === undefined) break;
    type = item;
  }
  return SIMPLE.has(type) || type in types;
}
