/**
 * ISO 19005-1, 6.7.3: each entry of the document information dictionary that has an XMP analogue holds the
 * same value as it: Title and dc:title (its x-default), Author and dc:creator (which then has exactly one
 * entry), Subject and dc:description, Keywords and pdf:Keywords, Creator and xmp:CreatorTool, Producer and
 * pdf:Producer, CreationDate and xmp:CreateDate, ModDate and xmp:ModifyDate (dates compared as dates).
 * PDF/A-2 and -3 dropped the rule; it is PDF/A-1's alone.
 */
import { firstText, propertyOf, type XmpPacket, type XmpValue } from './rdf.js';

const DC = 'http://purl.org/dc/elements/1.1/';
const XMP = 'http://ns.adobe.com/xap/1.0/';
const PDF = 'http://ns.adobe.com/pdf/1.3/';

type Comparison = 'text' | 'single' | 'date';
const ANALOGUES: readonly {
  entry: string;
  namespace: string;
  name: string;
  shown: string;
  as: Comparison;
}[] = [
  { entry: 'Title', namespace: DC, name: 'title', shown: 'dc:title', as: 'text' },
  { entry: 'Author', namespace: DC, name: 'creator', shown: 'dc:creator', as: 'single' },
  { entry: 'Subject', namespace: DC, name: 'description', shown: 'dc:description', as: 'text' },
  { entry: 'Keywords', namespace: PDF, name: 'Keywords', shown: 'pdf:Keywords', as: 'text' },
  { entry: 'Creator', namespace: XMP, name: 'CreatorTool', shown: 'xmp:CreatorTool', as: 'text' },
  { entry: 'Producer', namespace: PDF, name: 'Producer', shown: 'pdf:Producer', as: 'text' },
  { entry: 'CreationDate', namespace: XMP, name: 'CreateDate', shown: 'xmp:CreateDate', as: 'date' },
  { entry: 'ModDate', namespace: XMP, name: 'ModifyDate', shown: 'xmp:ModifyDate', as: 'date' },
];

interface DateParts {
  fields: number[];
  /** Minutes east of UTC; null when the date names no zone. */
  offset: number | null;
}

/** A PDF date (ISO 32000-1, 7.9.4): D:YYYYMMDDHHmmSSOHH'mm', every part after the year optional. */
const PDF_DATE =
  /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(\d{2})?'?)?)?$/;
/** An XMP date (ISO 8601 as XMP takes it): YYYY[-MM[-DD[Thh:mm[:ss[.s]][zone]]]]. */
const XMP_DATE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:([Zz+-])(?:(\d{2}):(\d{2}))?)?)?)?)?$/;

/** A date's parts as `pattern` captures them: year to second, then the zone's sign, hours and minutes. */
function dateParts(pattern: RegExp, text: string): DateParts | null {
  const match = pattern.exec(text.trim());
  if (!match) return null;
  const [, year, month = '01', day = '01', hour = '00', minute = '00', second = '00', sign, oh, om] = match;
  return { fields: [year, month, day, hour, minute, second].map(Number), offset: zone(sign, oh, om) };
}

function zone(
  sign: string | undefined,
  hours: string | undefined,
  minutes: string | undefined,
): number | null {
  if (sign === undefined) return null;
  if (sign === 'Z' || sign === 'z') return 0;
  const size = Number(hours ?? 0) * 60 + Number(minutes ?? 0);
  return sign === '-' ? -size : size;
}

/** The same moment when both dates name their zone; the same written fields when either does not. */
function sameDate(a: DateParts, b: DateParts): boolean {
  if (a.offset === null || b.offset === null) return a.fields.every((value, i) => value === b.fields[i]);
  const instant = (d: DateParts) => {
    const [y, mo, da, h, mi, s] = d.fields as [number, number, number, number, number, number];
    return Date.UTC(y, mo - 1, da, h, mi, s) - d.offset! * 60_000;
  };
  return instant(a) === instant(b);
}

function disagreement(value: XmpValue | undefined, info: string, as: Comparison): string | null {
  if (!value) return 'is missing';
  if (as === 'single') {
    const items = value.kind === 'array' ? value.items : [value];
    if (items.length !== 1) return `has ${items.length} entries, not one`;
    return firstText(items[0]) === info ? null : `holds "${clip(firstText(items[0]) ?? '')}"`;
  }
  const text = firstText(value);
  if (text === null) return 'is not text';
  if (as === 'text') return text === info ? null : `holds "${clip(text)}"`;
  const [ours, theirs] = [dateParts(PDF_DATE, info), dateParts(XMP_DATE, text)];
  // a date the dictionary does not write as PDF dates are written (ISO 32000-1 7.9.4) is equivalent to none
  if (!ours) return `holds "${clip(text)}", and the dictionary's "${clip(info)}" is not a PDF date`;
  return theirs && sameDate(ours, theirs) ? null : `holds "${clip(text)}", another date`;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** One entry of the document information dictionary beside its XMP analogue. */
export interface InfoAnalogue {
  /** The entry's key: Title, Author, Subject, Keywords, Creator, Producer, CreationDate, ModDate. */
  entry: string;
  /** Its text. */
  value: string;
  /** The XMP property it has for analogue, as written with its usual prefix (`dc:title`). */
  analogue: string;
  /** The analogue's text (a Lang Alt's x-default item, an array's first item); null when absent or not text. */
  xmp: string | null;
  /** The number of items of an array analogue; 1 for a simple value, 0 when absent. */
  items: number;
  /** Why the two disagree; null when they agree. */
  disagreement: string | null;
}

/**
 * Each entry of `info` that has an XMP analogue, beside it in `packet`: `info` holds the dictionary's text
 * entries, and null for an entry whose value is not a text string (which is equivalent to no XMP value).
 */
export function infoAnalogues(info: ReadonlyMap<string, string | null>, packet: XmpPacket): InfoAnalogue[] {
  return ANALOGUES.flatMap(({ entry, namespace, name, shown, as }) => {
    const value = info.get(entry);
    if (value === undefined) return [];
    const xmp = propertyOf(packet, namespace, name)?.value;
    if (value === null)
      return [
        {
          entry,
          value: '',
          analogue: shown,
          xmp: firstText(xmp),
          items: !xmp ? 0 : xmp.kind === 'array' ? xmp.items.length : 1,
          disagreement: 'is beside an entry that is not a text string',
        },
      ];
    return [
      {
        entry,
        value,
        analogue: shown,
        xmp: firstText(xmp),
        items: !xmp ? 0 : xmp.kind === 'array' ? xmp.items.length : 1,
        disagreement: disagreement(xmp, value, as),
      },
    ];
  });
}

/**
 * Where the document information dictionary and the XMP metadata disagree, as sentences: `info` holds the
 * dictionary's entries as text (absent or non-text entries left out).
 */
export function infoDisagreements(info: ReadonlyMap<string, string>, packet: XmpPacket): string[] {
  if (!packet.wellFormed) return [];
  return ANALOGUES.flatMap(({ entry, namespace, name, shown, as }) => {
    const value = info.get(entry);
    if (value === undefined) return [];
    const why = disagreement(propertyOf(packet, namespace, name)?.value, value, as);
    return why ? [`Info /${entry} is "${clip(value)}" but its XMP analogue ${shown} ${why}`] : [];
  });
}
