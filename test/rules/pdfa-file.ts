import { standardEncryption } from './encryption.js';

/**
 * Minimal PDF/A files written byte by byte, for the rules' fixture pairs: `pdfaFile(part)` keeps every rule of
 * ISO 19005-`part` level B, and its edits break one rule at a time. Bytes are written as they are given (no
 * library rewrites them), so that a fixture can get the syntax wrong on purpose.
 *
 * Objects 1 to 7 are the file's own: catalog, page tree, page, content stream, XMP metadata, output intent and
 * its ICC profile. Extra objects take the numbers from 8 on, in the order given (`ref(0)` is `8 0 R`).
 */

export type Bytes = Uint8Array | string;

export interface PdfaEdits {
  /** Replaces `%PDF-1.4` (part 1) or `%PDF-1.7`, its end of line and the binary comment line. */
  header?: Bytes;
  /** Entries added to the catalog dictionary, as written (`/Lang (en)`). */
  catalog?: string;
  /** Entries added to the page dictionary. */
  page?: string;
  /** The page's resource dictionary entries (inside `<< >>`). */
  resources?: string;
  /** The page's content stream data. Default: a blue square in DeviceRGB. */
  content?: Bytes;
  /** Objects 8, 9, ...: each the bytes between `N 0 obj` and `endobj` (see `stream()`). */
  objects?: Bytes[];
  /** Entries added to the trailer dictionary. */
  trailer?: string;
  /** XMP properties added inside the description (e.g. `<dc:format>application/pdf</dc:format>`). */
  xmp?: string;
  /** XMP namespaces added to the description (`xmlns:dc="http://purl.org/dc/elements/1.1/"`). */
  xmpNamespaces?: string;
  /** The whole XMP packet, instead of the default. */
  xmpPacket?: Bytes;
  /** Entries added to the metadata stream's dictionary (`/Filter /ASCIIHexDecode`, with an `xmpPacket` to match). */
  metadataEntries?: string;
  /** The document information dictionary's entries; when given, an /Info is written (as object 8's last). */
  info?: string;
  /** The output intent dictionary's entries, instead of the default sRGB one. */
  outputIntent?: string;
  /** Leave the output intent out. */
  noOutputIntent?: boolean;
  /** The ICC profile of the output intent. */
  icc?: Uint8Array;
  /** Leave the trailer's /ID out. */
  noId?: boolean;
  /**
   * Encrypt the file as a writer does (RC4 of 40 bits, the empty user password), with these permissions
   * (/P); the encryption dictionary is the last object. Needs the trailer's /ID.
   */
  encrypt?: { permissions: number };
  /** The last edit: the whole file's bytes, changed as a test needs (offsets are not recomputed). */
  finish?: (bytes: Uint8Array) => Uint8Array;
}

const enc = new TextEncoder();
export const bytesOf = (b: Bytes): Uint8Array => (typeof b === 'string' ? latin1(b) : b);

/** Text whose characters are all below 256, as bytes one for one. */
export function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A stream object's body: the dictionary entries (without `/Length`, which is added) and its data. */
export function stream(entries: string, data: Bytes, options: { length?: number } = {}): Uint8Array {
  const body = bytesOf(data);
  return concat([
    latin1(`<< ${entries} /Length ${options.length ?? body.length} >>\nstream\n`),
    body,
    latin1('\nendstream'),
  ]);
}

/** `N 0 R` of extra object `index` (0 is object 8). */
export const ref = (index: number): string => `${index + 8} 0 R`;

/** A minimal ICC profile of version 2.1: a display (`mntr`) RGB profile, or the class and space asked. */
export function iccProfile(
  options: { deviceClass?: string; colorSpace?: string; version?: number; components?: number } = {},
): Uint8Array {
  const tags: [string, Uint8Array][] = [
    ['desc', descTag('sRGB fixture')],
    ['wtpt', xyzTag(0.9642, 1, 0.8249)],
    ['cprt', textTag('No copyright, fixture')],
    ['rXYZ', xyzTag(0.4361, 0.2225, 0.0139)],
    ['gXYZ', xyzTag(0.3851, 0.7169, 0.0971)],
    ['bXYZ', xyzTag(0.1431, 0.0606, 0.7141)],
    ['rTRC', curveTag(2.2)],
    ['gTRC', curveTag(2.2)],
    ['bTRC', curveTag(2.2)],
  ];
  const tableSize = 4 + tags.length * 12;
  let offset = 128 + tableSize;
  const entries: Uint8Array[] = [];
  const data: Uint8Array[] = [];
  for (const [sig, tag] of tags) {
    const padded = concat([tag, new Uint8Array((4 - (tag.length % 4)) % 4)]);
    entries.push(concat([latin1(sig), u32(offset), u32(tag.length)]));
    data.push(padded);
    offset += padded.length;
  }
  const header = new Uint8Array(128);
  const view = new DataView(header.buffer);
  view.setUint32(0, offset);
  header.set(latin1('none'), 4);
  view.setUint32(8, options.version ?? 0x02100000);
  header.set(latin1(options.deviceClass ?? 'mntr'), 12);
  header.set(latin1(options.colorSpace ?? 'RGB '), 16);
  header.set(latin1('XYZ '), 20);
  view.setUint16(24, 2026);
  view.setUint16(26, 1);
  view.setUint16(28, 1);
  header.set(latin1('acsp'), 36);
  // D50, the profile connection space's illuminant
  view.setInt32(68, Math.round(0.9642 * 65536));
  view.setInt32(72, 65536);
  view.setInt32(76, Math.round(0.8249 * 65536));
  return concat([header, u32(tags.length), ...entries, ...data]);
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}
function xyzTag(x: number, y: number, z: number): Uint8Array {
  const b = new Uint8Array(20);
  b.set(latin1('XYZ '), 0);
  const v = new DataView(b.buffer);
  v.setInt32(8, Math.round(x * 65536));
  v.setInt32(12, Math.round(y * 65536));
  v.setInt32(16, Math.round(z * 65536));
  return b;
}
function curveTag(gamma: number): Uint8Array {
  const b = new Uint8Array(14);
  b.set(latin1('curv'), 0);
  const v = new DataView(b.buffer);
  v.setUint32(8, 1);
  v.setUint16(12, Math.round(gamma * 256));
  return b;
}
function textTag(text: string): Uint8Array {
  return concat([latin1('text'), new Uint8Array(4), latin1(text), new Uint8Array(1)]);
}
function descTag(text: string): Uint8Array {
  return concat([
    latin1('desc'),
    new Uint8Array(4),
    u32(text.length + 1),
    latin1(text),
    new Uint8Array(1),
    new Uint8Array(4 + 4 + 2 + 1 + 67),
  ]);
}

/** The default XMP packet: the PDF/A identification, and what `edits` add. */
export function xmpPacket(part: 1 | 2 | 3, edits: Pick<PdfaEdits, 'xmp' | 'xmpNamespaces'> = {}): string {
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"${edits.xmpNamespaces ? ` ${edits.xmpNamespaces}` : ''}>
<pdfaid:part>${part}</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
${edits.xmp ?? ''}
</rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/** The page's default content: a blue square. */
export const SQUARE = '0 0 1 rg\n10 10 100 100 re\nf\n';

/** A PDF/A-`part` level B file with `edits`; without edits it keeps every rule of the part. */
export function pdfaFile(part: 1 | 2 | 3, edits: PdfaEdits = {}): Uint8Array {
  const header = edits.header ?? `%PDF-${part === 1 ? '1.4' : '1.7'}\n%\xE2\xE3\xCF\xD3\n`;
  const extras = edits.objects ?? [];
  const infoNumber = edits.info !== undefined ? 8 + extras.length : undefined;
  const packet = edits.xmpPacket ?? enc.encode(xmpPacket(part, edits));
  const intents = edits.noOutputIntent ? '' : ' /OutputIntents [6 0 R]';
  const bodies: Uint8Array[] = [
    latin1(
      `<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R${intents}${edits.catalog ? ` ${edits.catalog}` : ''} >>`,
    ),
    latin1('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    latin1(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << ${edits.resources ?? ''} >> /Contents 4 0 R${edits.page ? ` ${edits.page}` : ''} >>`,
    ),
    stream('', edits.content ?? SQUARE),
    stream(
      `/Type /Metadata /Subtype /XML${edits.metadataEntries ? ` ${edits.metadataEntries}` : ''}`,
      packet,
    ),
    latin1(
      edits.outputIntent !== undefined
        ? `<< ${edits.outputIntent} >>`
        : '<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB) /DestOutputProfile 7 0 R >>',
    ),
    stream('/N 3', edits.icc ?? iccProfile()),
    ...extras.map(bytesOf),
    ...(edits.info !== undefined ? [latin1(`<< ${edits.info} >>`)] : []),
  ];
  const id = edits.noId ? '' : ` /ID ${FIXTURE_ID}`;
  return writeFile(header, bodies, {
    info: infoNumber,
    encrypt: edits.encrypt,
    trailer: `${id}${edits.trailer ? ` ${edits.trailer}` : ''}`,
    finish: edits.finish,
  });
}

/** The trailer /ID the fixture writers write (its first part keys their encryption). */
export const FIXTURE_ID = '[<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>]';

/**
 * A file of `header` and `bodies`, numbered from 1 (1 is the catalog), encrypted as a writer does when
 * asked, with its cross-reference table and a trailer naming /Size, /Root, /Info and /Encrypt and then
 * `trailer`'s entries as written; `finish` changes the bytes last.
 */
export function writeFile(
  header: Bytes,
  bodies: Uint8Array[],
  options: {
    info?: number | undefined;
    encrypt?: { permissions: number } | undefined;
    trailer: string;
    finish?: ((bytes: Uint8Array) => Uint8Array) | undefined;
  },
): Uint8Array {
  const objects = [...bodies];
  const encryption = options.encrypt ? standardEncryption(options.encrypt.permissions) : undefined;
  if (encryption) {
    objects.forEach((body, i) => (objects[i] = encryption.object(i + 1, body)));
    objects.push(latin1(encryption.dictionary));
  }
  const parts: Uint8Array[] = [bytesOf(header)];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const object = concat([latin1(`${i + 1} 0 obj\n`), body, latin1('\nendobj\n')]);
    parts.push(object);
    at += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  const info =
    (options.info !== undefined ? ` /Info ${options.info} 0 R` : '') +
    (encryption ? ` /Encrypt ${objects.length} 0 R` : '');
  parts.push(
    latin1(
      `${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info}${options.trailer} >>\nstartxref\n${at}\n%%EOF\n`,
    ),
  );
  const file = concat(parts);
  return options.finish ? options.finish(file) : file;
}

/**
 * `file` with an incremental update appended (ISO 32000-1 7.5.6): `objects` by number, then a cross-reference
 * table (or, with `xrefStream`, a cross-reference stream of that object number) and a trailer of `trailer`'s
 * entries and /Prev. Write /Size, /Root and /ID in `trailer` as the test needs.
 */
export function appendUpdate(
  file: Uint8Array,
  update: {
    objects: Record<number, Bytes>;
    trailer: string;
    xrefStream?: number;
    /** Objects already in `file`, by number, at these offsets, listed again in the update. */
    listed?: Record<number, number>;
  },
): Uint8Array {
  const text = Buffer.from(file).toString('latin1');
  const prev = Number([...text.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1] ?? 0);
  const parts: Uint8Array[] = [file];
  let at = file.length;
  const offsets: [number, number][] = Object.entries(update.listed ?? {}).map(([n, o]) => [Number(n), o]);
  for (const [num, body] of Object.entries(update.objects)) {
    const object = concat([latin1(`${num} 0 obj\n`), bytesOf(body), latin1('\nendobj\n')]);
    offsets.push([Number(num), at]);
    parts.push(object);
    at += object.length;
  }
  if (update.xrefStream === undefined) {
    const table = offsets.map(([num, o]) => `${num} 1\n${String(o).padStart(10, '0')} 00000 n \n`).join('');
    parts.push(
      latin1(`xref\n${table}trailer\n<< ${update.trailer} /Prev ${prev} >>\nstartxref\n${at}\n%%EOF\n`),
    );
  } else {
    offsets.push([update.xrefStream, at]);
    const rows = offsets.map(([, o]) => [1, (o >>> 24) & 255, (o >>> 16) & 255, (o >>> 8) & 255, o & 255, 0]);
    const index = offsets.map(([num]) => `${num} 1`).join(' ');
    const body = stream(
      `/Type /XRef /W [1 4 1] /Index [${index}] ${update.trailer} /Prev ${prev}`,
      Uint8Array.from(rows.flat()),
    );
    parts.push(
      concat([latin1(`${update.xrefStream} 0 obj\n`), body, latin1(`\nendobj\nstartxref\n${at}\n%%EOF\n`)]),
    );
  }
  return concat(parts);
}
