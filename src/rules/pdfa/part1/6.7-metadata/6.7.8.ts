import type { ExtensionObjectNode, ExtensionRole, XmpEdition } from '../../../../pdf/model/metadata.js';
import { rule, type Reason, type Rule, type Specification } from '../../../rule.js';

/** The structures of the extension schema: how each is named and the prefix its fields are written with. */
const STRUCTURE: Record<Exclude<ExtensionRole, 'container'>, { title: string; prefix: string }> = {
  schema: { title: 'PDF/A Schema', prefix: 'pdfaSchema' },
  property: { title: 'PDF/A Property', prefix: 'pdfaProperty' },
  valueType: { title: 'PDF/A ValueType', prefix: 'pdfaType' },
  field: { title: 'PDF/A Field', prefix: 'pdfaField' },
};

/** A field's rule: the role it is a field of, its name, its type, whether it must be there. */
interface FieldRule {
  role: Exclude<ExtensionRole, 'container'>;
  name: string;
  type: 'Text' | 'URI' | 'Seq Property' | 'Seq ValueType' | 'Seq Field';
  required: boolean;
  /** The field's value names a defined type (valueType of a property or a field). */
  definedType?: boolean;
  allowed?: readonly string[];
}

/** The fields' rules in the profiles' test order (ISO 19005-1 6.7.8-3 to -19, ISO 19005-2 6.6.2.3.3-2 to -18). */
const FIELD_RULES: FieldRule[] = [
  { role: 'schema', name: 'schema', type: 'Text', required: true },
  { role: 'schema', name: 'namespaceURI', type: 'URI', required: true },
  { role: 'schema', name: 'prefix', type: 'Text', required: true },
  { role: 'schema', name: 'property', type: 'Seq Property', required: false },
  { role: 'schema', name: 'valueType', type: 'Seq ValueType', required: false },
  { role: 'property', name: 'name', type: 'Text', required: true },
  { role: 'property', name: 'valueType', type: 'Text', required: true, definedType: true },
  { role: 'property', name: 'category', type: 'Text', required: true, allowed: ['external', 'internal'] },
  { role: 'property', name: 'description', type: 'Text', required: true },
  { role: 'valueType', name: 'type', type: 'Text', required: true },
  { role: 'valueType', name: 'namespaceURI', type: 'URI', required: true },
  { role: 'valueType', name: 'prefix', type: 'Text', required: true },
  { role: 'valueType', name: 'description', type: 'Text', required: true },
  { role: 'valueType', name: 'field', type: 'Seq Field', required: false },
  { role: 'field', name: 'name', type: 'Text', required: true },
  { role: 'field', name: 'valueType', type: 'Text', required: true, definedType: true },
  { role: 'field', name: 'description', type: 'Text', required: true },
];

function fieldFault(node: ExtensionObjectNode, spec: FieldRule, edition: XmpEdition): string | undefined {
  if (node.role !== spec.role) return undefined;
  const { prefix } = STRUCTURE[spec.role];
  const shown = `${prefix}:${spec.name}`;
  const field = node.fields[spec.name];
  if (!field) return spec.required ? `it has no ${shown}` : undefined;
  if (spec.type.startsWith('Seq ')) {
    // an optional Seq written empty (<pdfaSchema:valueType/>) describes nothing, as an empty rdf:Seq does
    if (!spec.required && field.shape === 'text' && field.text === '') return undefined;
    if (field.shape !== 'Seq') return `${shown} is ${article(field.shape)}, not a Seq`;
    if (!field.itemsAreStructures) return `${shown} has an item that is not a structure`;
  } else if (field.shape !== 'text') return `${shown} is ${article(field.shape)}, not ${spec.type}`;
  if (field.prefix !== prefix) return `${shown} is written with the prefix "${field.prefix}"`;
  if (spec.allowed && !spec.allowed.includes(field.text ?? ''))
    return `${shown} is "${(field.text ?? '').slice(0, 40)}", not ${spec.allowed.join(' or ')}`;
  if (spec.definedType && node.valueTypeDefined && !node.valueTypeDefined[edition])
    return `${shown} names a type, "${(field.text ?? '').slice(0, 60)}", that neither ${edition} nor the packet defines`;
  return undefined;
}

const article = (shape: string) =>
  shape === 'text' ? 'a simple value' : /^[AEIOU]/i.test(shape) ? `an ${shape}` : `a ${shape}`;

/** The extension schema rules of a part: `number(i)` is the test number of FIELD_RULES[i]'s rule. */
export function extensionSchemaRules(
  specifications: Specification[],
  edition: XmpEdition,
  tests: { undefinedFields: [string, number]; container: [string, number]; fields: [string, number] },
): Rule[] {
  return [
    rule({
      specifications,
      clause: tests.undefinedFields[0],
      test: tests.undefinedFields[1],
      object: 'extension_object',
      check: 'xmp_extension_schemas',
      says: 'Extension schemas are written with the PDF/A extension schema, using only the fields it defines',
      fault: (node) =>
        node.undefinedFields.length > 0
          ? `it has ${node.undefinedFields.length === 1 ? 'a field' : 'fields'} the extension schema does not define: ${node.undefinedFields.slice(0, 5).join(', ')}`
          : undefined,
      fix: 'write each extension schema with the fields of pdfaSchema, pdfaProperty, pdfaType and pdfaField only, each in its namespace',
    }),
    rule({
      specifications,
      clause: tests.container[0],
      test: tests.container[1],
      object: 'extension_object',
      check: 'xmp_extension_schemas',
      says: 'The extension schema container pdfaExtension:schemas is a Bag, written with the prefix pdfaExtension',
      fault: (node) => {
        if (node.role !== 'container' || node.name !== 'schemas') return undefined;
        if (node.shape !== 'Bag') return `it is ${article(node.shape)}, not a Bag`;
        return node.prefix === 'pdfaExtension' ? undefined : `it is written with the prefix "${node.prefix}"`;
      },
      fix: 'write the extension schemas as <pdfaExtension:schemas><rdf:Bag>…</rdf:Bag></pdfaExtension:schemas>',
    }),
    ...FIELD_RULES.map((spec, i) => {
      const { title, prefix } = STRUCTURE[spec.role];
      return rule({
        specifications,
        clause: tests.fields[0],
        test: tests.fields[1] + i,
        object: 'extension_object',
        check: 'xmp_extension_schemas',
        says: `Field ${spec.name} of the ${title} value type ${spec.required ? 'is present and ' : ''}has type ${spec.type}${spec.allowed ? ` (${spec.allowed.join(' or ')})` : ''}${spec.definedType ? ' naming a defined type' : ''}, with the prefix ${prefix}`,
        fault: (node) => fieldFault(node, spec, edition),
        fix: `write ${prefix}:${spec.name} as ${spec.type.startsWith('Seq') ? `an rdf:Seq of ${spec.type.slice(4)} structures` : `a ${spec.type} value`} with the prefix ${prefix}${spec.definedType ? ', naming an XMP type or one the packet defines in pdfaSchema:valueType' : ''}`,
      });
    }),
  ];
}

/** ISO 19005-1, 6.7.8 Extension schemas. */
export const rules: Rule[] = extensionSchemaRules(['ISO 19005-1'], 'XMP 2004', {
  undefinedFields: ['6.7.8', 1],
  container: ['6.7.8', 2],
  fields: ['6.7.8', 3],
});
export const reasons: Reason[] = [];
