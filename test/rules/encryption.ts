/**
 * Encryption as a writer does it, for the fixture writers (`pdfa-file.ts`, `pdfua-file.ts`): files a reader
 * opens without a password, whose strings and streams read once decrypted.
 */
import { createHash } from 'node:crypto';

/** Text whose characters are all below 256, as bytes one for one. */
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);

/** The padding of ISO 32000-1 7.6.3.3, Algorithm 2: what an empty password is padded to. */
const PADDING = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e,
  0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
/** The first part of the trailer /ID every fixture writer writes. */
const FILE_ID = Buffer.from('0123456789ABCDEF0123456789ABCDEF', 'hex');

function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Uint8Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]) => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
};

/**
 * Revision 2 of the Standard security handler (ISO 32000-1 7.6.3.3, Algorithms 1 to 4) for a file whose user
 * password is empty: the /O and /U values, and each object encrypted with its own key. The fixtures' strings
 * are written as `(...)` with no parenthesis inside; each becomes a hexadecimal string of its ciphertext.
 */
export function standardEncryption(permissions: number) {
  const owner = latin1('owner');
  const ownerKey = md5(Uint8Array.from([...owner, ...PADDING].slice(0, 32))).slice(0, 5);
  const o = rc4(ownerKey, PADDING);
  const p = new Uint8Array(4);
  new DataView(p.buffer).setInt32(0, permissions, true);
  const key = md5(PADDING, o, p, FILE_ID).slice(0, 5);
  const u = rc4(key, PADDING);
  const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString('hex')}>`;
  const objectKey = (num: number) =>
    md5(key, Uint8Array.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, 0, 0])).slice(0, 10);
  return {
    dictionary: `<< /Filter /Standard /V 1 /R 2 /Length 40 /O ${hex(o)} /U ${hex(u)} /P ${permissions} >>`,
    object(num: number, body: Uint8Array): Uint8Array {
      const text = Buffer.from(body).toString('latin1');
      const own = objectKey(num);
      const strings = (dict: string) =>
        dict.replace(/\(([^()\\]*)\)/g, (_, inner: string) => hex(rc4(own, latin1(inner))));
      const at = text.indexOf('\nstream\n');
      if (at < 0) return latin1(strings(text));
      const end = text.lastIndexOf('\nendstream');
      const data = rc4(own, body.subarray(at + 8, end));
      return Uint8Array.from([
        ...latin1(strings(text.slice(0, at + 8))),
        ...data,
        ...latin1(text.slice(end)),
      ]);
    },
  };
}
