/**
 * The glyph names of an embedded Type 1 program (FontFile): the keys of its `/CharStrings` dictionary, which
 * lives in the eexec-encrypted part (Adobe Type 1 Font Format, 7.2). `length1` is the clear-text part's length;
 * the encrypted part may be binary or hexadecimal. Undefined when the program cannot be read this way.
 */
export function type1GlyphNames(program: Uint8Array, length1: number): string[] | undefined {
  if (!Number.isInteger(length1) || length1 <= 0 || length1 >= program.length) return undefined;
  const encrypted = asBinary(program.subarray(length1));
  const plain = decrypt(encrypted, EEXEC_KEY);
  // the first four bytes are random, by the format's rule
  const text = Buffer.from(plain.buffer, plain.byteOffset + 4, Math.max(0, plain.byteLength - 4)).toString(
    'latin1',
  );
  const start = text.indexOf('/CharStrings');
  if (start === -1) return undefined;
  const names: string[] = [];
  // `/name length RD <length bytes> ND`, RD and ND as the program names them (often -| and |-)
  const entry = /\/([^\s/<>[\](){}%]+)\s+(\d+)\s+(\S+) /y;
  let at = text.indexOf('begin', start);
  if (at === -1) return undefined;
  at += 'begin'.length;
  while (names.length < MAX_GLYPHS) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    entry.lastIndex = at;
    const match = entry.exec(text);
    if (!match) break;
    names.push(match[1]!);
    at = entry.lastIndex + Number(match[2]);
    // the charstring's end word (ND, |- or noaccess def)
    const end = /\s*(?:ND|\|-|noaccess\s+def|def)/y;
    end.lastIndex = at;
    if (!end.exec(text)) break;
    at = end.lastIndex;
  }
  return names.length > 0 ? names : undefined;
}

const EEXEC_KEY = 55665;
const MAX_GLYPHS = 65_536;

/** Type 1 decryption (Adobe Type 1 Font Format, 7.1). */
export function decrypt(bytes: Uint8Array, key: number): Uint8Array {
  const out = new Uint8Array(bytes.length);
  let r = key;
  for (let i = 0; i < bytes.length; i++) {
    const cipher = bytes[i]!;
    out[i] = cipher ^ (r >> 8);
    r = ((cipher + r) * 52845 + 22719) & 0xffff;
  }
  return out;
}

const HEX = /^[0-9A-Fa-f]{4}$/;

/** The encrypted part as bytes: hexadecimal when its first four bytes are hex digits (7.2), else binary. */
export function asBinary(part: Uint8Array): Uint8Array {
  let start = 0;
  while (start < part.length && (part[start] === 0x20 || part[start] === 0x0d || part[start] === 0x0a))
    start++;
  const head = String.fromCharCode(...part.subarray(start, start + 4));
  if (!HEX.test(head)) return part.subarray(start);
  const digits = Buffer.from(part.subarray(start))
    .toString('latin1')
    .replace(/[^0-9A-Fa-f]/g, '');
  return new Uint8Array(Buffer.from(digits.slice(0, digits.length - (digits.length % 2)), 'hex'));
}
