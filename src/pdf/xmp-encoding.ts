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

/** The packet as text, in whichever of the five encodings it is written (a byte order mark dropped). */
export function xmpText(bytes: Uint8Array): string {
  const encoding = xmpEncoding(bytes);
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return utf32(bytes, encoding === 'utf-32le');
  return new TextDecoder(encoding).decode(bytes);
}
