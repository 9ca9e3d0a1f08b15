/**
 * Whether an XMP value has the shape and the lexical form of a value type (XMP Specification Part 1, 8.2 and
 * Part 2's schemas): simple types by their text, arrays by their form and items, structures by their fields'
 * namespace, names and types. The structured types come from the edition's definitions (predefined, or
 * declared by a PDF/A extension schema).
 */
import type { PropertyType, StructuredType } from './predefined-schemas.js';
import type { XmpValue } from './rdf.js';

/**
 * XMP Date (Part 1, 8.2.1.1): YYYY, YYYY-MM, YYYY-MM-DD, or with a time of hh:mm[:ss[.s+]] and its zone. Read
 * as the XMP Toolkit's ISO 8601 parser reads it: months, days, hours and minutes of one digit or two, a zone
 * with or without its colon; the fields' ranges are checked (month 1-12, hour 0-23, ...).
 */
const DATE =
  /^-?\d{1,4}(-(0?[1-9]|1[0-2])(-(0?[1-9]|[12]\d|3[01])(T([01]?\d|2[0-3]):[0-5]?\d(:[0-5]?\d(\.\d+)?)?(Z|[+-]([01]?\d|2[0-3])(:?[0-5]\d)?)?)?)?)?$/;
const INTEGER = /^[+-]?\d+$/;
const REAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const BOOLEAN = /^(True|False)$/;
const RATIONAL = /^[+-]?\d+\/[+-]?\d+$/;
/** EXIF GPS (XMP Part 2, EXIF schema): "DDD,MM,SSk" or "DDD,MM.mmk", k one of N, S, E, W. */
const GPS_COORDINATE = /^\d{1,3},\d{1,2}(,\d{1,2}(\.\d+)?|\.\d+)?[NSEW]$/;

const LEXICAL: Readonly<Record<string, RegExp>> = {
  Date: DATE,
  Integer: INTEGER,
  Real: REAL,
  Boolean: BOOLEAN,
  Rational: RATIONAL,
  GPSCoordinate: GPS_COORDINATE,
};

/**
 * Simple types whose text may be anything: their meaning is not checked, only that they are one value. A
 * Locale is among them: conforming files of the reference corpus hold other text in `dc:language`.
 */
const TEXT_TYPES = new Set([
  ...['Text', 'URI', 'URL', 'XPath', 'MIMEType', 'ProperName', 'AgentName', 'RenditionClass', 'Locale'],
]);

const ARRAY = /^(Bag|Seq|Alt) (.+)$/;

export type StructuredTypes = Readonly<Record<string, StructuredType>>;

/**
 * How values are read against their types. `closedChoices`: a closed choice's values are enforced (the XMP
 * Specification's tables), or only its base type (as the reference validator, veraPDF, reads them: its
 * closed-choice checks serve its metadata fixer, not validation). `emptyDate`: an empty Date is accepted, as
 * the XMP Toolkit's ISO 8601 parser accepts it.
 */
export interface TypeReading {
  closedChoices: boolean;
  emptyDate: boolean;
}
const STRICT: TypeReading = { closedChoices: true, emptyDate: false };
/** Values read as the reference validator reads them: a value it accepts is never called mistyped here. */
export const AS_VALIDATORS_READ: TypeReading = { closedChoices: false, emptyDate: true };

/**
 * Why `value` is not of `type` (a sentence fragment), or null when it is. A type that is neither simple, an
 * array, nor in `types` is unknown: the caller decides what that means.
 */
export function typeMismatch(value: XmpValue, spec: PropertyType, types: StructuredTypes): string | null {
  const why = typeFault(value, spec, types);
  return why === undefined ? `has a type, ${spec.type}, that no schema defines` : why;
}

/**
 * Why `value` is not of `type` (a sentence fragment), null when it is, or undefined when that cannot be told:
 * the type, or the type of a field or item the value holds, is one no schema defines.
 */
export function typeFault(
  value: XmpValue,
  spec: PropertyType,
  types: StructuredTypes,
  reading: TypeReading = STRICT,
): string | null | undefined {
  const { type } = spec;
  const allowed = reading.closedChoices ? spec.allowed : undefined;
  if (value.kind === 'malformed') return `is not valid XMP (${value.reason})`;
  if (type === 'Any') return null;
  if (type === 'Lang Alt') {
    if (value.kind !== 'array' || value.form !== 'Alt') return `is a ${shapeOf(value)}, not a Lang Alt`;
    // an Alt is a language alternative when it is empty or one of its items names a language (XMP Toolkit)
    const named = value.items.some((item) => item.kind === 'simple' && item.lang);
    return value.items.length === 0 || named ? null : 'is an Alt whose items name no language (xml:lang)';
  }
  const array = ARRAY.exec(type);
  if (array) {
    const [, form, itemType] = array as unknown as [string, string, string];
    if (value.kind !== 'array' || value.form !== form) return `is a ${shapeOf(value)}, not a ${form} array`;
    let unknown = false;
    for (const item of value.items) {
      const why = typeFault(item, { type: itemType, allowed }, types, reading);
      if (why) return `has an item that ${why}`;
      if (why === undefined) unknown = true;
    }
    return unknown ? undefined : null;
  }
  const structured = types[type];
  // a value type declared with no fields is text (veraPDF and the extension schema technical note read so)
  if (structured && Object.keys(structured.fields).length === 0)
    return value.kind === 'simple' ? null : `is a ${shapeOf(value)}, not a ${type} (text)`;
  if (structured) {
    if (value.kind !== 'struct') return `is a ${shapeOf(value)}, not a ${type} structure`;
    let unknown = false;
    for (const field of value.fields) {
      const fieldSpec = field.namespace === structured.namespace ? structured.fields[field.name] : undefined;
      if (!fieldSpec) return `has a field ${field.prefix}:${field.name} that ${type} does not define`;
      const why = typeFault(field.value, fieldSpec, types, reading);
      if (why) return `has a field ${field.name} that ${why}`;
      if (why === undefined) unknown = true;
    }
    return unknown ? undefined : null;
  }
  if (value.kind !== 'simple') return `is a ${shapeOf(value)}, not a ${type}`;
  const lexical = LEXICAL[type];
  const emptyDate = type === 'Date' && reading.emptyDate && value.text.trim() === '';
  if (lexical && !emptyDate && !lexical.test(value.text.trim()))
    return `"${clip(value.text)}" is not a ${type}`;
  if (!lexical && !TEXT_TYPES.has(type)) return undefined;
  if (allowed && !allowed.test(value.text.trim()))
    return `"${clip(value.text)}" is not one of its allowed values`;
  return null;
}

const MAX_TYPE_NAME = 200;

const CANONICAL = new Map(
  [...TEXT_TYPES, ...Object.keys(LEXICAL), 'Lang Alt', 'Any'].map((name) => [name.toLowerCase(), name]),
);

/**
 * A value type as an extension schema may spell it, in the form this module knows: names compared without
 * case, an open or closed Choice of a type taken as that type ("Closed Choice of Integer": Integer, "Choice":
 * Text), and an array form alone taken as an array of Text ("Bag": Bag Text), as the XMP validators of the
 * reference implementation read them.
 */
export function canonicalType(written: string, types: StructuredTypes): string {
  // a type name longer than any a schema writes is left as written (and so unknown): no deep recursion
  if (written.length > MAX_TYPE_NAME) return written;
  // "Choice", "Open Choice of X", "closed choice of X" anywhere in the name: the choice is of X, or of Text
  const trimmed =
    written
      .replace(/(?:open\s+|closed\s+)?choice(?:\s+of\b|\b)/gi, ' ')
      .trim()
      .replace(/\s+/g, ' ') || 'Text';
  const bare = /^(bag|seq|alt)$/i.exec(trimmed);
  if (bare) return canonicalType(`${bare[1]!} Text`, types);
  const array = /^(bag|seq|alt) (.+)$/i.exec(trimmed);
  if (array) {
    const form = array[1]![0]!.toUpperCase() + array[1]!.slice(1).toLowerCase();
    return `${form} ${canonicalType(array[2]!, types)}`;
  }
  const known = CANONICAL.get(trimmed.toLowerCase());
  if (known) return known;
  return Object.keys(types).find((name) => name.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

function shapeOf(value: XmpValue): string {
  if (value.kind === 'array') return `${value.form} array`;
  if (value.kind === 'struct') return 'structure';
  if (value.kind === 'simple') return 'simple value';
  return 'malformed value';
}
