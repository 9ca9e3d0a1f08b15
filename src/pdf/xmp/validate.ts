/**
 * What an XMP packet breaks of ISO 19005's metadata clauses, for PDF/A-1 (6.7: the XMP Specification 2004)
 * and for PDF/A-2 and -3 (6.6: the XMP Specification 2005). Every property is of a predefined schema or of a
 * schema a PDF/A extension schema describes, and its value has the type its schema gives it; the extension
 * schemas themselves are written as ISO 19005 defines them (their fields, types and prefixes).
 */
import { XMP_2004, XMP_2005, type XmpDefinitions } from './predefined-schemas.js';
import type { XmpPacket, XmpProperty, XmpValue } from './rdf.js';
import { canonicalType, typeMismatch } from './value-types.js';
import {
  type Described,
  describedBy as described,
  EXTENSION,
  FIELD,
  PROPERTY,
  SCHEMA,
  TYPE,
  typesFor,
} from '../model/metadata/extension-schema.js';

export interface MetadataFinding {
  /** The part of ISO 19005 whose clause this is: 1 for PDF/A-1, 2 for PDF/A-2 and -3. */
  part: 1 | 2;
  clause: string;
  message: string;
}

/** The structures of an extension schema (ISO 19005-1 6.7.8, ISO 19005-2 6.6.2.3.3), with their prefixes. */
interface ContainerType {
  namespace: string;
  prefix: string;
  fields: Record<string, { type: string; required: boolean; allowed?: RegExp }>;
}
const CONTAINER_TYPES: Record<string, ContainerType> = {
  Schema: {
    namespace: SCHEMA,
    prefix: 'pdfaSchema',
    fields: {
      schema: { type: 'Text', required: true },
      namespaceURI: { type: 'URI', required: true },
      prefix: { type: 'Text', required: true },
      property: { type: 'Seq Property', required: false },
      valueType: { type: 'Seq ValueType', required: false },
    },
  },
  Property: {
    namespace: PROPERTY,
    prefix: 'pdfaProperty',
    fields: {
      name: { type: 'Text', required: true },
      valueType: { type: 'Text', required: true },
      category: { type: 'Text', required: true, allowed: /^(internal|external)$/ },
      description: { type: 'Text', required: true },
    },
  },
  ValueType: {
    namespace: TYPE,
    prefix: 'pdfaType',
    fields: {
      type: { type: 'Text', required: true },
      namespaceURI: { type: 'URI', required: true },
      prefix: { type: 'Text', required: true },
      description: { type: 'Text', required: true },
      field: { type: 'Seq Field', required: false },
    },
  },
  Field: {
    namespace: FIELD,
    prefix: 'pdfaField',
    fields: {
      name: { type: 'Text', required: true },
      valueType: { type: 'Text', required: true },
      description: { type: 'Text', required: true },
    },
  },
};

/** The problems of one extension-schema structure (and those nested in it), as sentences. */
function containerProblems(value: XmpValue, typeName: string, where: string): string[] {
  const type = CONTAINER_TYPES[typeName]!;
  if (value.kind !== 'struct') return [`${where} is not a ${type.prefix} structure`];
  const problems: string[] = [];
  for (const field of value.fields) {
    const spec = type.fields[field.name];
    if (field.namespace !== type.namespace || !spec) {
      problems.push(`${where} has a field ${field.prefix}:${field.name} that ${type.prefix} does not define`);
      continue;
    }
    if (field.prefix !== type.prefix)
      problems.push(`${where} writes ${type.prefix}:${field.name} with the prefix "${field.prefix}"`);
    const array = /^Seq (\w+)$/.exec(spec.type);
    if (array) {
      if (field.value.kind !== 'array' || field.value.form !== 'Seq') {
        problems.push(`${where}'s ${type.prefix}:${field.name} is not a Seq`);
        continue;
      }
      field.value.items.forEach((item, index) =>
        problems.push(...containerProblems(item, array[1]!, `${type.prefix}:${field.name}[${index + 1}]`)),
      );
      continue;
    }
    const why = typeMismatch(field.value, { type: spec.type, allowed: spec.allowed }, {});
    if (why) problems.push(`${where}'s ${type.prefix}:${field.name} ${why}`);
  }
  for (const [name, spec] of Object.entries(type.fields))
    if (
      spec.required &&
      !value.fields.some((field) => field.namespace === type.namespace && field.name === name)
    )
      problems.push(`${where} has no ${type.prefix}:${name}`);
  return problems;
}

function propertyProblems(
  properties: XmpProperty[],
  definitions: XmpDefinitions,
  extension: Described,
  edition: string,
): string[] {
  const types = typesFor(definitions, extension);
  const problems: string[] = [];
  for (const property of properties) {
    if (property.namespace === EXTENSION) continue;
    const schema = definitions.schemas.find((s) => s.namespace === property.namespace);
    const declared = extension.properties.get(property.namespace);
    const written = declared?.get(property.name);
    const spec =
      schema?.properties[property.name] ?? (written ? { type: canonicalType(written, types) } : undefined);
    const shown = `${property.prefix}:${property.name}`;
    if (!spec) {
      problems.push(
        schema
          ? `${shown} is not a property of the ${schema.title} schema in ${edition}, and no extension schema describes it`
          : declared
            ? `${shown} is not among the properties its extension schema describes`
            : `${shown} is of a schema (${property.namespace}) that is neither predefined in ${edition} nor described by an extension schema`,
      );
      continue;
    }
    const why = typeMismatch(property.value, spec, types);
    if (why) problems.push(`${shown} ${why} (its type is ${spec.type})`);
  }
  return problems;
}

const EDITIONS = [
  { part: 1, definitions: XMP_2004, edition: 'XMP 2004', properties: '6.7.2', extension: '6.7.8' },
  { part: 2, definitions: XMP_2005, edition: 'XMP 2005', properties: '6.6.2.3.1', extension: '6.6.2.3.3' },
] as const;

/** What the packet breaks of each part's metadata clauses; a packet with no rdf:RDF is another rule's. */
export function metadataFindings(packet: XmpPacket): MetadataFinding[] {
  if (!packet.wellFormed) return [];
  const containers = packet.properties.filter((p) => p.namespace === EXTENSION);
  const containerIssues = containers.flatMap((container) => {
    if (container.name !== 'schemas')
      return [`pdfaExtension:${container.name} is not an extension schema container`];
    const issues: string[] = [];
    if (container.prefix !== 'pdfaExtension')
      issues.push(`the extension schema container is written with the prefix "${container.prefix}"`);
    if (container.value.kind !== 'array' || container.value.form !== 'Bag')
      return [...issues, 'pdfaExtension:schemas is not a Bag'];
    container.value.items.forEach((schema, index) =>
      issues.push(...containerProblems(schema, 'Schema', `pdfaExtension:schemas[${index + 1}]`)),
    );
    return issues;
  });
  const extension = described(containers);
  return EDITIONS.flatMap(({ part, definitions, edition, properties, extension: extensionClause }) => [
    ...containerIssues.map((message) => ({ part, clause: extensionClause, message })),
    ...propertyProblems(packet.properties, definitions, extension, edition).map((message) => ({
      part,
      clause: properties,
      message,
    })),
  ]);
}
