/**
 * What a file's objects break of ISO 14289-1 (PDF/UA-1), read one by one from the cross-reference: font
 * dictionaries (7.21.3, 7.21.4.2, 7.21.6), reference and PostScript XObjects (7.20), media clips (7.18.6.2) and
 * optional content configurations (7.10). (ISO 19005's rules are the rules layer's: src/rules/pdfa.)
 */
import type { CosFile } from './cos/file.js';
import type { UaFinding } from './findings.js';
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
} from './cos/syntax.js';

const WINDOW = 16 * 1024;
const MAX_WINDOW = 1024 * 1024;
/** At most this many objects are read: a larger file's syntax is judged on its first ones. */
const MAX_OBJECTS = 200_000;
const MAX_PER_KIND = 5;

class Findings {
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
}

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

/** The PDF/UA rules of one object's dictionary: XObjects (7.20) and fonts (7.21). */
function dictionaryRules(cos: CosFile, num: number, dict: PdfDict, findings: Findings): void {
  const subtype = nameOf(dict.get('Subtype'));
  if (subtype === 'Form' && dict.has('Ref'))
    findings.ua({ clause: '7.20', message: `form XObject ${num} is a reference XObject (/Ref)` });
  else if (subtype === 'PS' && nameOf(dict.get('Type')) === 'XObject')
    findings.ua({ clause: '7.20', message: `object ${num} is a PostScript XObject` });
  if (nameOf(dict.get('Type')) === 'Font') {
    fontSubsetRules(cos, num, dict, subtype, findings);
    if (subtype === 'Type0') for (const finding of compositeFontRules(cos, num, dict)) findings.ua(finding);
    if (subtype === 'TrueType')
      for (const finding of trueTypeEncodingRules(cos, num, dict)) findings.ua(finding);
  }
}

const MAX_FONT_PROGRAM = 16 * 1024 * 1024;

/** How many CIDs a CIDSet stream lists: its bits that are set. */
function listedCids(cidSet: Uint8Array): number {
  let count = 0;
  for (const byte of cidSet) for (let bits = byte; bits; bits &= bits - 1) count++;
  return count;
}

/**
 * ISO 14289-1 7.21.4.2: a CIDSet lists every CID the program holds, told here by the program's glyph count
 * (its .notdef aside); a Type 1 CharSet lists exactly the glyph names of its program.
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
  if (subtype === 'CIDFontType0' || subtype === 'CIDFontType2') {
    const cidSet = cos.get(descriptor, 'CIDSet');
    if (!isStream(cidSet)) return;
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
    if (problem) findings.ua({ clause: '7.21.4.2', message: problem });
  } else if (subtype === 'Type1') {
    const charSet = cos.get(descriptor, 'CharSet');
    if (!(charSet instanceof Uint8Array)) return;
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
    if (problem) findings.ua({ clause: '7.21.4.2', message: problem });
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

/** One indirect object at `offset`: its dictionary (a stream's too), judged by the PDF/UA rules. */
function scanObject(cos: CosFile, file: Reader, num: number, offset: number, findings: Findings): void {
  for (let window = WINDOW; window <= MAX_WINDOW; window *= 8) {
    const bytes = file.at(offset, window);
    const header = /^(\d+)([ \t\r\n\f\0]+)(\d+)([ \t\r\n\f\0]+)obj/.exec(text(bytes, 0, 64));
    if (!header) return;
    let value: PdfValue;
    try {
      value = new Lexer(bytes, header[0].length).value();
    } catch {
      if (bytes.length === window && window < MAX_WINDOW) continue;
      return;
    }
    if (isDict(value)) dictionaryRules(cos, num, value, findings);
    mediaClips(cos, num, value, findings);
    if (isStream(value)) dictionaryRules(cos, num, value.stream.dict, findings);
    return;
  }
}

/**
 * The findings of one scan of the file's objects, by clause of ISO 14289-1. Bytes that cannot be read as
 * objects end the scan with what it found: the other facts of the file never depend on it.
 */
export function scanObjects(cos: CosFile): { ua: UaFinding[] } {
  const findings = new Findings();
  try {
    scanFile(cos, findings);
  } catch (error) {
    if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
  }
  return { ua: findings.listUa() };
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
        const value = new Lexer(stream.bytes, at).value();
        if (isDict(value)) dictionaryRules(cos, num, value, findings);
        mediaClips(cos, num, value, findings);
      } catch {
        // an unreadable object in an object stream is another rule's
      }
    }
  }
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
