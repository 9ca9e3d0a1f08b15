/**
 * The text of an XMP packet. XMP may be written in UTF-8, UTF-16 or UTF-32, either byte order (XMP
 * Specification Part 1, 7.3.2; PDF/A-1 accepts all five, PDF/A-2 asks for UTF-8): the encoding is told by a
 * byte order mark, or else by how the first character, `<`, is written.
 */
type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

export function xmpEncoding(bytes: Uint8Array): Encoding {
  const [a, b, c, d] = bytes;
  if (a === 0x00 && b === 0x00 && ((c === 0xfe && d === 0xff) || (c === 0x00 && d === 0x3c)))
    return 'utf-32be';
  if (a === 0xff && b === 0xfe && c === 0x00 && d === 0x00) return 'utf-32le';
  if (a === 0x3c && b === 0x00 && c === 0x00 && d === 0x00) return 'utf-32le';
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) return 'utf-16be';
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) return 'utf-16le';
  return 'utf-8';
}

function utf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chars: string[] = [];
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const code = view.getUint32(at, littleEndian);
    chars.push(code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd');
  }
  return chars.join('').replace(/^\ufeff/, '');
}

/** Windows-1252's characters for the bytes 0x80 to 0x9F (0 where it has none: those read as Latin-1). */
const CP1252 = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0,
  0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0, 0x017e, 0x0178,
];

/** The length of the UTF-8 sequence at `at` when it is a well-formed one, else 0. */
function utf8Sequence(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  const length =
    lead < 0x80
      ? 1
      : lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
  if (length === 0 || at + length > bytes.length) return 0;
  for (let i = 1; i < length; i++) if ((bytes[at + i]! & 0xc0) !== 0x80) return 0;
  const second = bytes[at + 1]!;
  // overlong forms, surrogates and code points above U+10FFFF are not UTF-8
  if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f)) return 0;
  if ((lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return 0;
  return length;
}

/**
 * UTF-8 with each byte that is not part of a well-formed sequence read as Windows-1252 (Latin-1): how the
 * XMP Toolkit reads a packet some writer filled with Latin-1 text (its ACCEPT_LATIN_1 parse option, on by
 * default), so that the text is what that writer meant.
 */
function utf8OrLatin1(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let start = 0;
  for (let at = 0; at < bytes.length;) {
    const length = utf8Sequence(bytes, at);
    if (length > 0) {
      at += length;
      continue;
    }
    parts.push(decoder.decode(bytes.subarray(start, at)));
    const byte = bytes[at]!;
    const mapped = byte >= 0x80 && byte <= 0x9f ? CP1252[byte - 0x80] || byte : byte;
    parts.push(String.fromCharCode(mapped));
    start = ++at;
  }
  parts.push(decoder.decode(bytes.subarray(start)));
  return parts.join('').replace(/^\ufeff/, '');
}

/** The packet as text, in whichever of the five encodings it is written (a byte order mark dropped). */
export function xmpText(bytes: Uint8Array): string {
  const encoding = xmpEncoding(bytes);
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return utf32(bytes, encoding === 'utf-32le');
  if (encoding !== 'utf-8') return new TextDecoder(encoding).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return utf8OrLatin1(bytes);
  }
}
