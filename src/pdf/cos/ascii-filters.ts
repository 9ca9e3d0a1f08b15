/**
 * The two ASCII filters of ISO 32000-1 7.4.2 and 7.4.3. Writers use them for ICC profiles and XMP as often
 * as for content: a stream they code was read as nothing, and what it held (an output intent's profile)
 * was taken to be missing. Both end at their end-of-data marker; white space anywhere is ignored.
 */

const isWhite = (byte: number) =>
  byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** ASCIIHexDecode: pairs of hex digits up to `>`; an odd last digit is followed by 0. Undefined on a bad byte. */
export function asciiHexDecode(data: Uint8Array): Uint8Array | undefined {
  const out = new Uint8Array(Math.ceil(data.length / 2));
  let length = 0;
  let high = -1;
  for (const byte of data) {
    if (byte === 0x3e) break;
    if (isWhite(byte)) continue;
    const value = hexValue(byte);
    if (value < 0) return undefined;
    if (high < 0) high = value;
    else {
      out[length++] = (high << 4) | value;
      high = -1;
    }
  }
  if (high >= 0) out[length++] = high << 4;
  return out.subarray(0, length);
}

/**
 * ASCII85Decode: groups of five characters `!` to `u` for four bytes, `z` for four zeros, up to `~>`; a
 * last group of n characters gives n - 1 bytes. Undefined on a bad byte.
 */
export function ascii85Decode(data: Uint8Array): Uint8Array | undefined {
  // a `z` gives four bytes for one: count them, so that the output is sized before it is written
  let zeros = 0;
  for (const byte of data) {
    if (byte === 0x7e) break;
    if (byte === 0x7a) zeros++;
  }
  const out = new Uint8Array(Math.ceil((data.length * 4) / 5) + 4 + zeros * 4);
  let length = 0;
  const group: number[] = [];
  const flush = (count: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < count; i++) out[length++] = (value >>> (24 - 8 * i)) & 0xff;
    group.length = 0;
  };
  for (const byte of data) {
    if (byte === 0x7e) break;
    if (isWhite(byte)) continue;
    if (byte === 0x7a && group.length === 0) {
      length += 4;
      continue;
    }
    if (byte < 0x21 || byte > 0x75) return undefined;
    group.push(byte - 0x21);
    if (group.length === 5) flush(4);
  }
  if (group.length === 1) return undefined;
  if (group.length > 0) flush(group.length - 1);
  return out.subarray(0, length);
}
