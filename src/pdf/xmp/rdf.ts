/**
 * An XMP packet read into XMP's data model (XMP Specification Part 1, 7.9: the RDF forms XMP allows): the
 * top-level properties of its `rdf:Description`s, each a simple value (with qualifiers such as `xml:lang`), a
 * structure of fields, or an array (`rdf:Bag`, `rdf:Seq`, `rdf:Alt`) of values. What the RDF does not say in
 * one of those forms is kept as `malformed`, with the reason, so that a rule can name it. The XML itself is
 * parsed by xmldom, namespace-aware: a property is known by its namespace URI, never by its prefix alone.
 */
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';

export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XML = 'http://www.w3.org/XML/1998/namespace';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

export type XmpValue =
  | { kind: 'simple'; text: string; lang: string | null; qualifiers: XmpProperty[] }
  | { kind: 'struct'; fields: XmpProperty[] }
  | { kind: 'array'; form: 'Bag' | 'Seq' | 'Alt'; items: XmpValue[] }
  | { kind: 'malformed'; reason: string };

export interface XmpProperty {
  namespace: string;
  prefix: string;
  name: string;
  value: XmpValue;
}

export type XmpPacket =
  | { wellFormed: true; properties: XmpProperty[] }
  /** `noRdf`: the XML is well-formed but holds no `rdf:RDF` (an empty packet). */
  | { wellFormed: false; reason: string; properties: []; noRdf?: true };

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

const isElement = (node: Node): node is Element => node.nodeType === ELEMENT_NODE;
const childElements = (element: Element): Element[] => Array.from(element.childNodes).filter(isElement);
const isRdf = (node: Element, name: string) => node.namespaceURI === RDF && node.localName === name;
const textOf = (element: Element): string =>
  Array.from(element.childNodes)
    .filter((node) => node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE)
    .map((node) => node.nodeValue ?? '')
    .join('');

/** Attributes that are properties or fields: not namespace declarations, not rdf: or xml: syntax. */
const propertyAttributes = (element: Element) =>
  Array.from(element.attributes).filter(
    (attribute) =>
      attribute.namespaceURI !== XMLNS &&
      attribute.namespaceURI !== RDF &&
      attribute.namespaceURI !== XML &&
      attribute.prefix !== null &&
      attribute.prefix !== 'xmlns',
  );

const simple = (text: string, lang: string | null = null, qualifiers: XmpProperty[] = []): XmpValue => ({
  kind: 'simple',
  text,
  lang,
  qualifiers,
});

function attributeProperties(element: Element): XmpProperty[] {
  return propertyAttributes(element).map((attribute) => ({
    namespace: attribute.namespaceURI ?? '',
    prefix: attribute.prefix ?? '',
    name: attribute.localName ?? attribute.name,
    value: simple(attribute.value),
  }));
}

function elementProperty(element: Element, depth: number): XmpProperty {
  return {
    namespace: element.namespaceURI ?? '',
    prefix: element.prefix ?? '',
    name: element.localName ?? element.nodeName,
    value: valueOf(element, depth),
  };
}

/** Fields of a structure written as a node element (`rdf:Description`) or with `rdf:parseType="Resource"`. */
function fieldsOf(element: Element, depth: number): XmpProperty[] {
  return [
    ...attributeProperties(element),
    ...childElements(element).map((child) => elementProperty(child, depth)),
  ];
}

const MAX_DEPTH = 32;

/**
 * The `xml:lang` in scope at an element: its own, or the nearest ancestor's (XML 1.0, 2.12: the language is
 * inherited), as RDF/XML reads it; a Lang Alt may name its language on the `rdf:Alt` or higher.
 */
function langInScope(element: Element): string | null {
  let node: Node | null = element;
  for (let hops = 0; node && isElement(node) && hops < 4 * MAX_DEPTH; hops++) {
    const lang = node.getAttributeNS(XML, 'lang');
    if (lang) return lang;
    node = node.parentNode;
  }
  return null;
}

/** The value a property element (or an `rdf:li`) holds, in whichever RDF form it is written. */
function valueOf(element: Element, depth: number): XmpValue {
  if (depth > MAX_DEPTH) return { kind: 'malformed', reason: 'nested too deeply' };
  const next = depth + 1;
  const lang = langInScope(element);
  const resource = element.getAttributeNodeNS(RDF, 'resource');
  if (resource) return simple(resource.value, lang);
  const parseType = element.getAttributeNS(RDF, 'parseType');
  if (parseType === 'Resource') return structOrQualified(fieldsOf(element, next), lang);
  if (parseType) return { kind: 'malformed', reason: `rdf:parseType="${parseType}"` };
  const children = childElements(element);
  if (children.length === 0) {
    const attributes = attributeProperties(element);
    if (attributes.length > 0) return { kind: 'struct', fields: attributes };
    return simple(textOf(element), lang);
  }
  if (children.length > 1 || textOf(element).trim() !== '')
    return { kind: 'malformed', reason: 'more than one node in a property element' };
  const only = children[0]!;
  for (const form of ['Bag', 'Seq', 'Alt'] as const) {
    if (!isRdf(only, form)) continue;
    const items = childElements(only);
    if (items.some((item) => !isRdf(item, 'li')))
      return { kind: 'malformed', reason: `rdf:${form} holds something other than rdf:li` };
    return { kind: 'array', form, items: items.map((item) => valueOf(item, next)) };
  }
  if (!isRdf(only, 'Description')) return { kind: 'malformed', reason: `an unexpected ${only.nodeName}` };
  return structOrQualified(fieldsOf(only, next), lang);
}

/**
 * Fields of a node element or of `rdf:parseType="Resource"`: a structure, or, with an `rdf:value` among them,
 * that value qualified by the other fields (Part 1, 7.9.2.5).
 */
function structOrQualified(fields: XmpProperty[], lang: string | null): XmpValue {
  const value = fields.find((field) => field.namespace === RDF && field.name === 'value');
  if (!value) return { kind: 'struct', fields };
  const qualifiers = fields.filter((field) => field !== value);
  if (value.value.kind !== 'simple') return value.value;
  const qualifierLang = qualifiers.find((q) => q.namespace === XML && q.name === 'lang');
  return simple(
    value.value.text,
    value.value.lang ?? (qualifierLang ? textValue(qualifierLang) : lang),
    qualifiers,
  );
}

const textValue = (property: XmpProperty) => (property.value.kind === 'simple' ? property.value.text : null);

/**
 * Reads an XMP packet's text. A packet that is not well-formed XML, or holds no `rdf:RDF`, says so in
 * `reason`; XML names and entities are those of XML 1.0, with no external entity ever fetched.
 */
export function readXmp(text: string): XmpPacket {
  let errors = '';
  const parser = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning' && !errors) errors = message;
    },
  });
  let document;
  try {
    document = parser.parseFromString(text.replace(/^\ufeff/, ''), 'text/xml');
  } catch (error) {
    return { wellFormed: false, reason: (error as Error).message.split('\n')[0]!, properties: [] };
  }
  if (errors) return { wellFormed: false, reason: errors.split('\n')[0]!, properties: [] };
  const root = document.getElementsByTagNameNS(RDF, 'RDF')[0];
  if (!root) return { wellFormed: false, reason: 'no rdf:RDF element', properties: [], noRdf: true };
  const properties: XmpProperty[] = [];
  for (const description of childElements(root)) {
    if (!isRdf(description, 'Description')) continue;
    properties.push(...fieldsOf(description, 0));
  }
  return { wellFormed: true, properties };
}

/** The first top-level property of a namespace and name. */
export const propertyOf = (packet: XmpPacket, namespace: string, name: string): XmpProperty | undefined =>
  packet.properties.find((property) => property.namespace === namespace && property.name === name);

/** A simple value's text, or an array's first item's (the x-default one first in a Lang Alt). */
export function firstText(value: XmpValue | undefined): string | null {
  if (!value) return null;
  if (value.kind === 'simple') return value.text;
  if (value.kind !== 'array') return null;
  const chosen =
    value.items.find((item) => item.kind === 'simple' && item.lang === 'x-default') ?? value.items[0];
  return chosen?.kind === 'simple' ? chosen.text : null;
}
