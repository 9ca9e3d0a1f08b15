/**
 * What a file's objects break of ISO 19005's file-structure and object clauses, read one by one from the
 * cross-reference (ISO 19005-1 6.1.6 to 6.1.12, ISO 19005-2 6.1.6 to 6.1.13): indirect objects framed by end-
 * of-line markers with single spaces in their headers, stream keywords and lengths as written, hexadecimal
 * strings of whole bytes, no LZW, the numbers, strings, names, arrays and dictionaries within each part's
 * implementation limits, and (PDF/A-2) a permissions dictionary of UR3 and DocMDP only; and the keys PDF/A
 * forbids in image, form XObject and halftone dictionaries. Content streams' operands are not read here.
 */
import type { CosFile } from './cos/file.js';
import type { ClauseFinding, UaFinding } from './findings.js';
import { compositeFontRules, trueTypeEncodingRules } from './ua-font-rules.js';
import { cffGlyphNames, glyphCount, outlinedGlyphs } from './glyph-count.js';
import { type1GlyphNames } from './type1-glyphs.js';
import {
  isDict,
  isStream,
  latin1,
  Lexer,
  nameOf,
  type PdfDict,
  type PdfValue,
  SyntaxFailure,
  textString,
  type TokenWatcher,
} from './cos/syntax.js';

/** What the scan looks at, by the clause each part gives it. */
export const OBJECT_CLAUSES = {
  objects: { 1: '6.1.8', 2: '6.1.9' },
  streams: { 1: '6.1.7', 2: '6.1.7.1' },
  hex: { 1: '6.1.6', 2: '6.1.6' },
  limits: { 1: '6.1.12', 2: '6.1.13' },
  lzw: { 1: '6.1.10', 2: '6.1.7.2' },
  permissions: { 2: '6.1.12' },
  images: { 1: '6.2.4', 2: '6.2.8.1' },
  xobjects: { 2: '6.2.9.1' },
  halftones: { 2: '6.2.5' },
  subsets: { 1: '6.3.5', 2: '6.2.11.4.2' },
} as const;
type Kind = keyof typeof OBJECT_CLAUSES;

/** ISO 19005-1 6.1.12 (PDF Reference 1.4, Appendix C) and ISO 19005-2 6.1.13 (ISO 32000-1, Annex C). */
const LIMITS = {
  1: { real: 32_767, string: 65_535, name: 127, array: 8_191, dictionary: 4_095 },
  2: { real: 3.403e38, string: 32_767, name: 127, array: Infinity, dictionary: Infinity },
} as const;
const INT_MAX = 2_147_483_647;
const INT_MIN = -2_147_483_648;

const WINDOW = 16 * 1024;
const MAX_WINDOW = 1024 * 1024;
/** At most this many objects are read: a larger file's syntax is judged on its first ones. */
const MAX_OBJECTS = 200_000;
const MAX_PER_KIND = 5;

class Findings {
  private readonly found = new Map<string, string[]>();
  private readonly uaFound: UaFinding[] = [];

  /** A finding of ISO 14289-1 (PDF/UA-1), at most five per clause. */
  ua(finding: UaFinding): void {
    const same = this.uaFound.filter((f) => f.clause === finding.clause);
    if (same.length < MAX_PER_KIND && !same.some((f) => f.message === finding.message))
      this.uaFound.push(finding);
  }

  listUa(): UaFinding[] {
    return [...this.uaFound];
  }

  add(kind: Kind, part: 1 | 2, message: string): void {
    const key = `${kind}:${part}`;
    const list = this.found.get(key) ?? [];
    if (list.length < MAX_PER_KIND && !list.includes(message)) list.push(message);
    this.found.set(key, list);
  }

  /** A font's glyph list that disagrees with its program: the same rule in PDF/A-1, -2 and PDF/UA-1. */
  subset(message: string): void {
    this.both('subsets', message);
    this.ua({ clause: '7.21.4.2', message });
  }

  /** For both parts at once, where the rule is the same in each. */
  both(kind: Kind, message: string): void {
    this.add(kind, 1, message);
    this.add(kind, 2, message);
  }

  list(): ClauseFinding[] {
    return [...this.found].flatMap(([key, messages]) => {
      const [kind, part] = key.split(':') as [Kind, string];
      const clause = (OBJECT_CLAUSES[kind] as Partial<Record<string, string>>)[part]!;
      return messages.map((message) => ({ part: Number(part) as 1 | 2, clause, message }));
    });
  }
}

/** Notes each token of one object that breaks a part's limits or is a broken hex string. */
function watcher(findings: Findings, where: () => string): TokenWatcher {
  const over = (kind: 'real' | 'string' | 'name' | 'array' | 'dictionary', size: number, what: string) => {
    for (const part of [1, 2] as const)
      if (size > LIMITS[part][kind]) findings.add('limits', part, `${what} in ${where()}`);
  };
  return {
    number(word, value) {
      if (!word.includes('.')) {
        if (value > INT_MAX || value < INT_MIN) findings.both('limits', `the integer ${word} in ${where()}`);
      } else if (Math.abs(value) > LIMITS[1].real) over('real', Math.abs(value), `the real number ${word}`);
    },
    hexString(digits, clean) {
      if (!clean) findings.both('hex', `a hexadecimal string with a byte that is no hex digit in ${where()}`);
      else if (digits % 2 === 1)
        findings.both('hex', `a hexadecimal string of ${digits} digits in ${where()}`);
    },
    name: (bytes) => over('name', bytes, `a name of ${bytes} bytes`),
    string: (bytes) => over('string', bytes, `a string of ${bytes} bytes`),
    array: (items) => over('array', items, `an array of ${items} items`),
    dictionary: (entries) => over('dictionary', entries, `a dictionary of ${entries} entries`),
  };
}

const isEol = (byte: number | undefined) => byte === 10 || byte === 13;

/** Bytes `start` to `end` of `bytes` as Latin-1 text, both clamped to what there is. */
const text = (bytes: Uint8Array, start: number, end: number) => {
  const to = Math.min(end, bytes.length);
  return latin1(bytes, Math.min(Math.max(0, start), to), to);
};

const CHUNK = 1024 * 1024;

/**
 * The file's bytes in chunks of a MiB read ahead: objects are visited in the order of their offsets, so
 * each part of the file is read about once, not once per object.
 */
class Reader {
  private start = 0;
  private chunk: Uint8Array = new Uint8Array(0);

  constructor(private readonly cos: CosFile) {}

  at(offset: number, length: number): Uint8Array {
    const end = Math.min(offset + length, this.cos.size);
    if (offset < this.start || end > this.start + this.chunk.length) {
      this.start = Math.max(0, offset - 1);
      this.chunk = this.cos.read(this.start, Math.max(CHUNK, end - this.start));
    }
    return this.chunk.subarray(offset - this.start, end - this.start);
  }
}

/** The filters a stream names, LZW among them or not. */
function usesLzw(cos: CosFile, dict: PdfDict): boolean {
  const filters = cos.get(dict, 'Filter');
  const names = Array.isArray(filters) ? filters.map((f) => nameOf(cos.resolve(f))) : [nameOf(filters)];
  return names.some((name) => name === 'LZWDecode' || name === 'LZW');
}

/** The rendering intents ISO 32000-1 (8.6.5.8) defines. */
const STANDARD_INTENTS = new Set([
  'RelativeColorimetric',
  'AbsoluteColorimetric',
  'Perceptual',
  'Saturation',
]);

/**
 * The keys PDF/A forbids in an object's dictionary, whatever refers to it: an image's Alternates, OPI,
 * Interpolate true and a rendering intent ISO 32000-1 does not define (ISO 19005-2 6.2.8.1, ISO 19005-1
 * 6.2.4); a form XObject's PS, OPI and Subtype2 /PS, and PostScript XObjects (ISO 19005-2 6.2.9.1; PDF/A-1's
 * rule is on the XObjects content paints, which this scan does not follow); a halftone's HalftoneName and
 * types other than 1 and 5 (ISO 19005-2 6.2.5).
 */
function dictionaryRules(cos: CosFile, num: number, dict: PdfDict, findings: Findings): void {
  const subtype = nameOf(dict.get('Subtype'));
  if (subtype === 'Image') {
    for (const key of ['Alternates', 'OPI'])
      if (dict.has(key)) findings.both('images', `image ${num} has an /${key} entry`);
    if (cos.get(dict, 'Interpolate') === true)
      findings.both('images', `image ${num} asks to be interpolated`);
    const intent = nameOf(cos.get(dict, 'Intent'));
    if (intent !== undefined && !STANDARD_INTENTS.has(intent))
      findings.both('images', `image ${num} has the rendering intent /${intent}`);
  } else if (subtype === 'Form') {
    if (dict.has('Ref'))
      findings.ua({ clause: '7.20', message: `form XObject ${num} is a reference XObject (/Ref)` });
    for (const key of ['PS', 'OPI'])
      if (dict.has(key)) findings.add('xobjects', 2, `form XObject ${num} has a /${key} entry`);
    if (nameOf(dict.get('Subtype2')) === 'PS')
      findings.add('xobjects', 2, `form XObject ${num} is a PostScript XObject (/Subtype2 /PS)`);
  } else if (subtype === 'PS' && nameOf(dict.get('Type')) === 'XObject') {
    findings.add('xobjects', 2, `object ${num} is a PostScript XObject`);
    findings.ua({ clause: '7.20', message: `object ${num} is a PostScript XObject` });
  }
  if (nameOf(dict.get('Type')) === 'Font') {
    fontSubsetRules(cos, num, dict, subtype, findings);
    if (subtype === 'Type0') for (const finding of compositeFontRules(cos, num, dict)) findings.ua(finding);
    if (subtype === 'TrueType')
      for (const finding of trueTypeEncodingRules(cos, num, dict)) findings.ua(finding);
  }
  const type = nameOf(dict.get('Type'));
  if (type === 'Page') pageBoundaryRules(cos, num, dict, findings);
  if (type === 'CMap') cmapRules(cos, num, findings);
  const halftoneType = cos.get(dict, 'HalftoneType');
  if (typeof halftoneType === 'number') {
    if (dict.has('HalftoneName')) findings.add('halftones', 2, `halftone ${num} has a /HalftoneName`);
    if (halftoneType !== 1 && halftoneType !== 5)
      findings.add('halftones', 2, `halftone ${num} is of type ${halftoneType}, not 1 or 5`);
  }
}

const MAX_CID = 65_535;
const MAX_CMAP = 4 * 1024 * 1024;

/**
 * An embedded CMap maps no code to a CID above 65,535 (ISO 32000-1 Annex C, PDF Reference 1.4 Appendix C):
 * the last CID of each `begincidrange` line (its first CID plus the span of its codes) and each
 * `begincidchar` CID.
 */
function cmapRules(cos: CosFile, num: number, findings: Findings): void {
  const stream = cos.object(num);
  if (!isStream(stream)) return;
  const bytes = cos.streamBytes(stream, MAX_CMAP);
  if (!bytes) return;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let highest = -1;
  const code = (hex: string) => Number.parseInt(hex || '0', 16);
  for (const block of text.matchAll(/begincidrange([\s\S]*?)endcidrange/g))
    for (const [, low, high, first] of block[1]!.matchAll(/<([0-9a-fA-F]*)>\s*<([0-9a-fA-F]*)>\s*(\d+)/g))
      highest = Math.max(highest, Number(first) + Math.max(0, code(high!) - code(low!)));
  for (const block of text.matchAll(/begincidchar([\s\S]*?)endcidchar/g))
    for (const [, cid] of block[1]!.matchAll(/<[0-9a-fA-F]*>\s*(\d+)/g))
      highest = Math.max(highest, Number(cid));
  if (highest > MAX_CID)
    findings.both('limits', `the CMap ${num} maps a code to CID ${highest}, above ${MAX_CID}`);
}

const PAGE_BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'];

/**
 * A page's boundaries as written (its own, or inherited from the page tree): 3 to 14,400 units in each
 * direction (ISO 32000-1 Annex C; PDF Reference 1.4 Appendix C), whatever a viewer clips them to. A page tree
 * node's box that every page overrides is not a page's.
 */
function pageBoundaryRules(cos: CosFile, num: number, page: PdfDict, findings: Findings): void {
  for (const key of PAGE_BOXES) {
    const box = cos.resolve(cos.inherited(page, key));
    if (!Array.isArray(box) || box.length !== 4) continue;
    const [x0, y0, x1, y1] = box.map((value) => cos.resolve(value));
    if (![x0, y0, x1, y1].every((value) => typeof value === 'number')) continue;
    const [width, height] = [
      Math.abs((x1 as number) - (x0 as number)),
      Math.abs((y1 as number) - (y0 as number)),
    ];
    if ([width, height].some((side) => side < 3 || side > 14_400))
      findings.both(
        'limits',
        `the /${key} of page object ${num} is ${round(width)} x ${round(height)} units, not 3 to 14,400`,
      );
  }
}

const round = (value: number) => Math.round(value * 100) / 100;

const SUBSET_TAG = /^[A-Z]{6}\+/;
const MAX_FONT_PROGRAM = 16 * 1024 * 1024;

/** How many CIDs a CIDSet stream lists: its bits that are set. */
function listedCids(cidSet: Uint8Array): number {
  let count = 0;
  for (const byte of cidSet) for (let bits = byte; bits; bits &= bits - 1) count++;
  return count;
}

/**
 * Font subsets that list their glyphs: ISO 19005-1 6.3.5 asks an embedded Type 1 subset for a CharSet and an
 * embedded CIDFont subset for a CIDSet; both parts ask a CIDSet to list every CID the program holds (ISO
 * 19005-2 6.2.11.4.2), told here by the program's glyph count (its .notdef aside). A Type 1 CharSet lists
 * exactly the glyph names of its program (ISO 19005-2 6.2.11.4.2, ISO 19005-1 6.3.5, ISO 14289-1 7.21.4.2).
 */
function fontSubsetRules(
  cos: CosFile,
  num: number,
  font: PdfDict,
  subtype: string | undefined,
  findings: Findings,
) {
  const name = nameOf(font.get('BaseFont')) ?? '';
  const descriptor = cos.dict(font, 'FontDescriptor');
  if (!descriptor) return;
  const program = ['FontFile', 'FontFile2', 'FontFile3']
    .map((key) => cos.get(descriptor, key))
    .find(isStream);
  if (!program) return;
  const subset = SUBSET_TAG.test(name);
  if (subtype === 'CIDFontType0' || subtype === 'CIDFontType2') {
    const cidSet = cos.get(descriptor, 'CIDSet');
    if (!isStream(cidSet)) {
      if (subset) findings.add('subsets', 1, `the CIDFont subset ${name} (object ${num}) has no CIDSet`);
      return;
    }
    const set = cos.streamBytes(cidSet);
    // a CIDSet this reader cannot decode (a filter it does not take) is not judged
    if (!set) return;
    const listed = listedCids(set);
    const bytes = cos.streamBytes(program, MAX_FONT_PROGRAM);
    const identity = font.get('CIDToGIDMap') === undefined || nameOf(font.get('CIDToGIDMap')) === 'Identity';
    // a TrueType CIDFont mapped by identity: each outlined glyph's CID is its glyph id; mapped otherwise, the
    // CIDs are not its glyph ids and are not judged. A CFF CIDFont's glyphs are its CIDs, by count.
    const outlined = bytes && identity && subtype === 'CIDFontType2' ? outlinedGlyphs(bytes) : undefined;
    const unlisted = outlined?.filter((gid) => gid > 0 && !((set[gid >> 3] ?? 0) & (0x80 >> (gid & 7))));
    const glyphs = bytes && subtype === 'CIDFontType0' ? glyphCount(bytes) : undefined;
    const problem =
      listed === 0
        ? `the CIDSet of ${name} (object ${num}) lists no CID`
        : unlisted && unlisted.length > 0
          ? `the CIDSet of ${name} (object ${num}) leaves out ${unlisted.length} CIDs its program holds (${unlisted.slice(0, 5).join(', ')})`
          : glyphs !== undefined && listed < glyphs - 1
            ? `the CIDSet of ${name} (object ${num}) lists ${listed} CIDs, and its program holds ${glyphs} glyphs`
            : undefined;
    if (problem) findings.subset(problem);
  } else if (subtype === 'Type1') {
    const charSet = cos.get(descriptor, 'CharSet');
    if (!(charSet instanceof Uint8Array)) {
      if (subset) findings.add('subsets', 1, `the Type 1 subset ${name} (object ${num}) has no CharSet`);
      return;
    }
    const glyphs = type1Glyphs(cos, descriptor);
    if (!glyphs) return;
    const listed = new Set(Buffer.from(charSet).toString('latin1').split('/').filter(Boolean));
    const unlisted = glyphs.filter((glyph) => glyph !== '.notdef' && !listed.has(glyph));
    const held = new Set(glyphs);
    const absent = [...listed].filter((glyph) => glyph !== '.notdef' && !held.has(glyph));
    const problem =
      unlisted.length > 0
        ? `the CharSet of ${name} (object ${num}) leaves out ${unlisted.length} glyphs its program holds (${unlisted.slice(0, 5).join(', ')})`
        : absent.length > 0
          ? `the CharSet of ${name} (object ${num}) lists ${absent.length} glyphs its program does not hold (${absent.slice(0, 5).join(', ')})`
          : undefined;
    if (problem) findings.subset(problem);
  }
}

/** The glyph names of a Type 1 font's embedded program: a Type 1 (FontFile) or a bare CFF (FontFile3 /Type1C). */
function type1Glyphs(cos: CosFile, descriptor: PdfDict): string[] | undefined {
  const type1 = cos.get(descriptor, 'FontFile');
  if (isStream(type1)) {
    const bytes = cos.streamBytes(type1, MAX_FONT_PROGRAM);
    const length1 = cos.get(type1.stream.dict, 'Length1');
    return bytes && typeof length1 === 'number' ? type1GlyphNames(bytes, length1) : undefined;
  }
  const cff = cos.get(descriptor, 'FontFile3');
  if (!isStream(cff) || nameOf(cos.get(cff.stream.dict, 'Subtype')) !== 'Type1C') return undefined;
  const bytes = cos.streamBytes(cff, MAX_FONT_PROGRAM);
  return bytes ? cffGlyphNames(bytes) : undefined;
}

/** One indirect object at `offset`: its frame, its tokens, and if a stream, its keyword, length and end. */
function scanObject(cos: CosFile, file: Reader, num: number, offset: number, findings: Findings): void {
  const where = () => `object ${num}`;
  if (offset > 0 && !isEol(file.at(offset - 1, 1)[0]))
    findings.both('objects', `object ${num} does not begin on a new line`);
  for (let window = WINDOW; window <= MAX_WINDOW; window *= 8) {
    const bytes = file.at(offset, window);
    const header = /^(\d+)([ \t\r\n\f\0]+)(\d+)([ \t\r\n\f\0]+)obj/.exec(text(bytes, 0, 64));
    if (!header) return;
    const lexer = new Lexer(bytes, header[0].length, watcher(findings, where));
    let value: PdfValue;
    try {
      value = lexer.value();
    } catch {
      if (bytes.length === window && window < MAX_WINDOW) continue;
      return;
    }
    if (header[2] !== ' ' || header[4] !== ' ')
      findings.both(
        'objects',
        `object ${num}'s header "${header[0].replace(/[\r\n]/g, ' ')}" does not use single spaces`,
      );
    if (!isEol(bytes[header[0].length]))
      findings.both('objects', `the obj keyword of object ${num} is not followed by an end-of-line marker`);
    if (isDict(value)) dictionaryRules(cos, num, value, findings);
    mediaClips(cos, num, value, findings);
    if (isStream(value)) {
      const { dict } = value.stream;
      dictionaryRules(cos, num, dict, findings);
      if (usesLzw(cos, dict)) findings.both('lzw', `object ${num} is a stream coded with LZWDecode`);
      const dataStart = value.stream.dataStart;
      const keyword = text(bytes, dataStart - 8, dataStart);
      if (!/stream(\r\n|\n)$/.test(keyword))
        findings.both('streams', `the stream keyword of object ${num} is not followed by CR LF or LF alone`);
      const length = cos.get(dict, 'Length');
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
        findings.both('streams', `object ${num}'s Length is not a whole number of bytes`);
        return;
      }
      const tail = text(file.at(offset + dataStart + length, 64), 0, 11);
      if (tail.startsWith('endstream'))
        findings.both(
          'streams',
          `the endstream keyword of object ${num} is not preceded by an end-of-line marker`,
        );
      else if (!/^(\r\n|\r|\n)endstream/.test(tail))
        findings.both(
          'streams',
          `object ${num}'s Length (${length}) is not the number of bytes up to the end-of-line before endstream`,
        );
      const end = text(file.at(offset + dataStart + length, 64), 0, 64);
      const endobj = /endstream\s*endobj/.exec(end);
      if (endobj && !/[\r\n]endobj/.test(endobj[0]))
        findings.both('objects', `the endobj keyword of object ${num} is not on a new line`);
      return;
    }
    const rest = text(bytes, lexer.pos, lexer.pos + 64);
    const endobj = /^\s*endobj/.exec(rest);
    if (endobj && !/[\r\n]endobj$/.test(endobj[0]))
      findings.both('objects', `the endobj keyword of object ${num} is not on a new line`);
    return;
  }
}

/** PDF/A-2 6.1.12: a permissions dictionary holds UR3 and DocMDP only, and DocMDP's references no digests. */
function permissions(cos: CosFile, findings: Findings): void {
  const perms = cos.dict(cos.catalog, 'Perms');
  if (!perms) return;
  const others = [...perms.keys()].filter((key) => key !== 'UR3' && key !== 'DocMDP');
  if (others.length > 0)
    findings.add(
      'permissions',
      2,
      `the permissions dictionary holds ${others.map((k) => `/${k}`).join(', ')}`,
    );
  const signature = cos.dict(perms, 'DocMDP');
  for (const reference of cos.array(signature, 'Reference')) {
    const dict = cos.resolve(reference);
    if (!isDict(dict)) continue;
    const digests = ['DigestLocation', 'DigestMethod', 'DigestValue'].filter((key) => dict.has(key));
    if (digests.length > 0)
      findings.add(
        'permissions',
        2,
        `the DocMDP signature reference holds ${digests.map((k) => `/${k}`).join(', ')}`,
      );
  }
}

/**
 * The findings of one scan of the file's objects: PDF/A's by part and clause, at most five of each kind and
 * part, and PDF/UA's by clause. Bytes that cannot be read as objects end the scan with what it found: the
 * other facts of the file never depend on it.
 */
export function scanObjects(cos: CosFile): { pdfa: ClauseFinding[]; ua: UaFinding[] } {
  const findings = new Findings();
  try {
    scanFile(cos, findings);
  } catch (error) {
    if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
  }
  return { pdfa: findings.list(), ua: findings.listUa() };
}

function scanFile(cos: CosFile, findings: Findings): void {
  let read = 0;
  const streams = new Set<number>();
  const file = new Reader(cos);
  const direct: [number, number][] = [];
  for (const [num, entry] of cos.listed()) {
    if (++read > MAX_OBJECTS) break;
    if ('offset' in entry) direct.push([num, entry.offset]);
    else streams.add(entry.container);
  }
  direct.sort((a, b) => a[1] - b[1]);
  // an offset is read once, however many entries name it (a hostile xref can name one offset 200,000 times)
  const offsets = new Set<number>();
  for (const [num, offset] of direct) {
    if (offsets.has(offset)) continue;
    offsets.add(offset);
    scanObject(cos, file, num, offset, findings);
  }
  for (const container of streams) {
    const stream = cos.objectStream(container);
    if (!stream) continue;
    const read = new Set<number>();
    for (const [num, at] of stream.offsets) {
      if (read.has(at)) continue;
      read.add(at);
      try {
        const value = new Lexer(
          stream.bytes,
          at,
          watcher(findings, () => `object ${num}`),
        ).value();
        if (isDict(value)) dictionaryRules(cos, num, value, findings);
        mediaClips(cos, num, value, findings);
      } catch {
        // an unreadable object in an object stream is another rule's
      }
    }
  }
  permissions(cos, findings);
  optionalContent(cos, findings);
}

const MAX_MEDIA_DEPTH = 8;

/**
 * ISO 14289-1 7.18.6.2: a media clip data dictionary (`/Type /MediaClip /S /MCD`, often written inside a
 * rendition action) names its content type (`/CT`) and describes itself (`/Alt`, a multi-language text array
 * with some text in it). Looked for in an object's value and the dictionaries and arrays it holds directly.
 */
function mediaClips(cos: CosFile, num: number, value: PdfValue, findings: Findings, depth = 0): void {
  if (depth > MAX_MEDIA_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value)
      if (isDict(item) || Array.isArray(item)) mediaClips(cos, num, item, findings, depth + 1);
    return;
  }
  if (!isDict(value)) return;
  if (nameOf(value.get('Type')) === 'MediaClip' && nameOf(value.get('S')) === 'MCD') {
    if (!value.has('CT'))
      findings.ua({ clause: '7.18.6.2', message: `a media clip in object ${num} has no content type (/CT)` });
    const alt = cos.array(value, 'Alt');
    const described = alt.some((text, i) => i % 2 === 1 && Boolean(textString(cos.resolve(text))?.trim()));
    if (!described)
      findings.ua({
        clause: '7.18.6.2',
        message: `a media clip in object ${num} has no alternate description (/Alt)`,
      });
  }
  for (const item of value.values())
    if (isDict(item) || Array.isArray(item)) mediaClips(cos, num, item, findings, depth + 1);
}

/** ISO 14289-1 7.10: every optional content configuration has a name, and none has an /AS entry. */
function optionalContent(cos: CosFile, findings: Findings): void {
  const properties = cos.dict(cos.catalog, 'OCProperties');
  if (!properties) return;
  const configurations = [
    cos.dict(properties, 'D'),
    ...cos.array(properties, 'Configs').map((c) => cos.resolve(c)),
  ];
  for (const [i, configuration] of configurations.entries()) {
    if (!isDict(configuration)) continue;
    const which =
      i === 0 ? 'the default optional content configuration' : `optional content configuration ${i}`;
    if (!textString(cos.get(configuration, 'Name'))?.trim())
      findings.ua({ clause: '7.10', message: `${which} has no /Name` });
    if (configuration.has('AS')) findings.ua({ clause: '7.10', message: `${which} has an /AS entry` });
  }
}
