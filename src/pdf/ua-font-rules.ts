import type { CosFile } from './cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, textString } from './cos/syntax.js';
import type { UaFinding } from './findings.js';
import { glyphNameMapsToUnicode } from './glyph-names.js';

const IDENTITY_CMAPS = new Set(['Identity-H', 'Identity-V']);
const MAX_CMAP_HEAD = 64 * 1024;

/**
 * ISO 14289-1 7.21.3, a composite (Type 0) font and its CIDFont: their CIDSystemInfo agree (7.21.3.1: the
 * same Registry and Ordering, and the CIDFont's Supplement no later than the CMap's); an embedded TrueType
 * CIDFont says how CIDs map to glyphs (7.21.3.2: `/CIDToGIDMap` Identity or a stream); a CMap other than
 * Identity-H and Identity-V is embedded, and an embedded CMap's `/WMode` is the one its program defines
 * (7.21.3.3).
 */
export function compositeFontRules(cos: CosFile, num: number, font: PdfDict): UaFinding[] {
  const found: UaFinding[] = [];
  const name = nameOf(font.get('BaseFont')) ?? `object ${num}`;
  const encoding = cos.get(font, 'Encoding');
  const descendant = cos.resolve(cos.array(font, 'DescendantFonts')[0]);
  const cidFont = isDict(descendant) ? descendant : undefined;

  const cmapName = nameOf(encoding);
  if (cmapName !== undefined && !IDENTITY_CMAPS.has(cmapName))
    found.push({ clause: '7.21.3.3', message: `the CMap ${cmapName} of ${name} is not embedded` });
  if (isStream(encoding)) {
    const declared = cos.get(encoding.stream.dict, 'WMode');
    const bytes = cos.streamBytes(encoding, MAX_CMAP_HEAD * 64);
    const program = bytes
      ? Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, MAX_CMAP_HEAD)).toString(
          'latin1',
        )
      : undefined;
    const defined = program === undefined ? undefined : /\/WMode\s+(\d+)\s+def/.exec(program)?.[1];
    if (defined !== undefined && Number(defined) !== (typeof declared === 'number' ? declared : 0))
      found.push({
        clause: '7.21.3.3',
        message: `the embedded CMap of ${name} declares /WMode ${typeof declared === 'number' ? declared : 0} and its program defines ${defined}`,
      });
    const cmapSystem = systemInfo(cos, encoding.stream.dict);
    const fontSystem = systemInfo(cos, cidFont);
    if (cmapSystem && fontSystem) {
      if (cmapSystem.registry !== fontSystem.registry || cmapSystem.ordering !== fontSystem.ordering)
        found.push({
          clause: '7.21.3.1',
          message: `${name}'s CIDFont is ${fontSystem.registry}-${fontSystem.ordering} and its CMap ${cmapSystem.registry}-${cmapSystem.ordering}`,
        });
      else if (fontSystem.supplement > cmapSystem.supplement)
        found.push({
          clause: '7.21.3.1',
          message: `${name}'s CIDFont has Supplement ${fontSystem.supplement}, later than its CMap's ${cmapSystem.supplement}`,
        });
    }
  }

  if (cidFont && nameOf(cos.get(cidFont, 'Subtype')) === 'CIDFontType2') {
    const embedded = isStream(cos.get(cos.dict(cidFont, 'FontDescriptor'), 'FontFile2'));
    const map = cos.get(cidFont, 'CIDToGIDMap');
    if (embedded && !isStream(map) && nameOf(map) !== 'Identity')
      found.push({
        clause: '7.21.3.2',
        message: `the embedded TrueType CIDFont of ${name} has ${map === undefined ? 'no /CIDToGIDMap' : 'a /CIDToGIDMap that is neither Identity nor a stream'}`,
      });
  }
  return found;
}

function systemInfo(cos: CosFile, dict: PdfDict | undefined) {
  const info = cos.dict(dict, 'CIDSystemInfo');
  if (!info) return undefined;
  const supplement = cos.get(info, 'Supplement');
  return {
    registry: textString(cos.get(info, 'Registry')) ?? '',
    ordering: textString(cos.get(info, 'Ordering')) ?? '',
    supplement: typeof supplement === 'number' ? supplement : 0,
  };
}

const NONSYMBOLIC = 1 << 5;
const SYMBOLIC = 1 << 2;
const LATIN_ENCODINGS = new Set(['MacRomanEncoding', 'WinAnsiEncoding']);

/**
 * ISO 14289-1 7.21.6: a non-symbolic TrueType font is encoded by MacRomanEncoding or WinAnsiEncoding (as its
 * /Encoding or the /BaseEncoding of its encoding dictionary), and its /Differences name glyphs by names the
 * Adobe Glyph List maps to Unicode (which a viewer finds through the program's Unicode cmap).
 */
export function trueTypeEncodingRules(cos: CosFile, num: number, font: PdfDict): UaFinding[] {
  const flags = cos.get(cos.dict(font, 'FontDescriptor'), 'Flags');
  if (typeof flags !== 'number' || (flags & NONSYMBOLIC) === 0 || (flags & SYMBOLIC) !== 0) return [];
  const name = nameOf(font.get('BaseFont')) ?? `object ${num}`;
  const encoding = cos.get(font, 'Encoding');
  const base = isDict(encoding) ? nameOf(cos.get(encoding, 'BaseEncoding')) : nameOf(encoding);
  if (base === undefined || !LATIN_ENCODINGS.has(base))
    return [
      {
        clause: '7.21.6',
        message: `the non-symbolic TrueType font ${name} is encoded ${base === undefined ? 'without MacRomanEncoding or WinAnsiEncoding' : `by ${base}, not MacRomanEncoding or WinAnsiEncoding`}`,
      },
    ];
  const unknown = (isDict(encoding) ? cos.array(encoding, 'Differences') : [])
    .map((entry) => nameOf(cos.resolve(entry)))
    .filter(
      (glyph): glyph is string =>
        glyph !== undefined && glyph !== '.notdef' && !glyphNameMapsToUnicode(glyph),
    );
  return unknown.length > 0
    ? [
        {
          clause: '7.21.6',
          message: `the non-symbolic TrueType font ${name} names glyphs no Unicode value is known for (${unknown.slice(0, 5).join(', ')})`,
        },
      ]
    : [];
}
