import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { isDict, nameOf, type PdfDict, type PdfValue } from './syntax.js';

/**
 * The standard security handler (ISO 32000-1 7.6.3, ISO 32000-2 7.6.4) opened with the empty user password,
 * as PDFium opens a file: revisions 2 to 4 (RC4 of 40 to 128 bits, AES-128 through crypt filters) and 5, 6
 * (AES-256). A file whose user password is not empty, or whose /Encrypt dictionary is one this does not
 * know, gets no decryptor and is read as it is stored.
 */

type Method = 'identity' | 'rc4' | 'aes128' | 'aes256';

export interface Decryptor {
  /** Whether the metadata streams (/Type /Metadata) are encrypted (/EncryptMetadata, 7.6.3.2). */
  readonly encryptMetadata: boolean;
  /** A string of object `num` `gen`, as the writer meant it. */
  string(bytes: Uint8Array, num: number, gen: number): Uint8Array;
  /**
   * A stream's stored data of object `num` `gen`; `filter`: the name its /Crypt filter gives, undefined
   * for the document's default (/StmF).
   */
  stream(bytes: Uint8Array, num: number, gen: number, filter?: string): Uint8Array;
}

/** Algorithm 2's padding string (7.6.3.3): the empty password is this, whole. */
const PADDING = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

const md5 = (...parts: Uint8Array[]) => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** RC4 (OpenSSL 3 keeps it out of its default provider): the same call encrypts and decrypts. */
export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/**
 * AES-CBC with the IV in the first 16 bytes and PKCS#5 padding (7.6.2); a short or ragged input decrypts
 * as far as it goes, and a padding that is not one is kept, as lenient readers do.
 */
function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  const blocks = Math.floor((data.length - 16) / 16);
  if (blocks <= 0) return new Uint8Array(0);
  const decipher = createDecipheriv(`aes-${key.length * 8}-cbc`, key, data.subarray(0, 16));
  decipher.setAutoPadding(false);
  const out = Buffer.concat([decipher.update(data.subarray(16, 16 + blocks * 16)), decipher.final()]);
  const pad = out[out.length - 1]!;
  if (pad < 1 || pad > 16) return out;
  for (let i = out.length - pad; i < out.length; i++) if (out[i] !== pad) return out;
  return out.subarray(0, out.length - pad);
}

const bytesOf = (value: PdfValue | undefined): Uint8Array | undefined =>
  value instanceof Uint8Array ? value : undefined;

/** Algorithm 2.B (ISO 32000-2 7.6.4.3.4), R6's hash; R5's is SHA-256 alone. */
function hash2B(password: Uint8Array, salt: Uint8Array, revision: number): Buffer {
  let k = createHash('sha256').update(password).update(salt).digest();
  if (revision === 5) return k;
  // the last byte of E ends the loop by round 288 at the latest
  for (let round = 1; ; round++) {
    const block = Buffer.concat([password, k]);
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => block));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i]!;
    k = createHash(['sha256', 'sha384', 'sha512'][sum % 3]!)
      .update(e)
      .digest();
    if (round >= 64 && e[e.length - 1]! <= round - 32) return k.subarray(0, 32);
  }
}

/** R5, R6 (Algorithms 2.A, 11): the file key from /UE, when the empty password is the user's. */
function aes256Key(encrypt: PdfDict, revision: number): Uint8Array | undefined {
  const u = bytesOf(encrypt.get('U'));
  const ue = bytesOf(encrypt.get('UE'));
  if (!u || u.length < 48 || !ue || ue.length < 32) return undefined;
  const empty = new Uint8Array(0);
  if (!hash2B(empty, u.subarray(32, 40), revision).equals(u.subarray(0, 32))) return undefined;
  const decipher = createDecipheriv(
    'aes-256-cbc',
    hash2B(empty, u.subarray(40, 48), revision),
    Buffer.alloc(16),
  );
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
}

/** R2 to R4 (Algorithms 2, 4, 5): the file key with the empty password, when it is the user's. */
function rc4Key(
  encrypt: PdfDict,
  revision: number,
  bytes: number,
  id: Uint8Array,
  encryptMetadata: boolean,
): Uint8Array | undefined {
  const o = bytesOf(encrypt.get('O'));
  const u = bytesOf(encrypt.get('U'));
  const p = encrypt.get('P');
  if (!o || o.length < 32 || !u || u.length < 32 || typeof p !== 'number') return undefined;
  const permissions = Buffer.alloc(4);
  permissions.writeInt32LE(p | 0);
  const extra = revision >= 4 && !encryptMetadata ? [Buffer.from([255, 255, 255, 255])] : [];
  let key = md5(PADDING, o.subarray(0, 32), permissions, id, ...extra).subarray(0, bytes);
  if (revision >= 3) for (let i = 0; i < 50; i++) key = md5(key).subarray(0, bytes);
  let check: Uint8Array;
  if (revision === 2) check = rc4(key, PADDING);
  else {
    check = rc4(key, md5(PADDING, id));
    for (let i = 1; i <= 19; i++)
      check = rc4(
        key.map((b) => b ^ i),
        check,
      );
  }
  const compared = revision === 2 ? 32 : 16;
  return Buffer.from(check.subarray(0, compared)).equals(u.subarray(0, compared)) ? key : undefined;
}

/** What a crypt filter's name stands for (7.6.5); undefined for a method this does not know. */
function filterMethod(cf: PdfDict | undefined, name: string | undefined): Method | undefined {
  if (name === undefined || name === 'Identity') return 'identity';
  const filter = cf?.get(name);
  if (!isDict(filter)) return undefined;
  switch (nameOf(filter.get('CFM')) ?? 'None') {
    case 'None':
      return 'identity';
    case 'V2':
      return 'rc4';
    case 'AESV2':
      return 'aes128';
    case 'AESV3':
      return 'aes256';
    default:
      return undefined;
  }
}

/**
 * The decryptor of a file whose trailer's /Encrypt is `encrypt` (resolved; its entries direct, as 7.6.1 wants
 * them) and whose first /ID string is `id`; undefined when the file cannot be opened with the empty password.
 */
export function standardDecryptor(encrypt: PdfDict, id: Uint8Array | undefined): Decryptor | undefined {
  if (nameOf(encrypt.get('Filter')) !== 'Standard') return undefined;
  const v = encrypt.get('V') ?? 0;
  const revision = encrypt.get('R');
  if (typeof v !== 'number' || typeof revision !== 'number') return undefined;
  const cf = isDict(encrypt.get('CF')) ? (encrypt.get('CF') as PdfDict) : undefined;
  let stringMethod: Method | undefined = 'rc4';
  let streamMethod: Method | undefined = 'rc4';
  if (v === 4 || v === 5) {
    streamMethod = filterMethod(cf, nameOf(encrypt.get('StmF')));
    stringMethod = filterMethod(cf, nameOf(encrypt.get('StrF')));
  } else if (v !== 1 && v !== 2) return undefined;
  if (!stringMethod || !streamMethod) return undefined;
  const encryptMetadata = v >= 4 ? encrypt.get('EncryptMetadata') !== false : true;

  let key: Uint8Array | undefined;
  if (revision === 5 || revision === 6) key = aes256Key(encrypt, revision);
  else if (revision >= 2 && revision <= 4) {
    const length = encrypt.get('Length');
    const bits = v === 1 ? 40 : typeof length === 'number' ? length : v === 4 ? 128 : 40;
    if (bits < 40 || bits > 128 || bits % 8 !== 0) return undefined;
    key = rc4Key(encrypt, revision, revision === 2 ? 5 : bits / 8, id ?? new Uint8Array(0), encryptMetadata);
  }
  if (!key) return undefined;
  const fileKey = key;
  // AES-128 wants a 16-byte key for each object (a file key of 11 bytes or more), AES-256 the 32 bytes
  const methods = [
    stringMethod,
    streamMethod,
    ...[...(cf?.keys() ?? [])].map((name) => filterMethod(cf, name)),
  ];
  if (methods.includes('aes128') && fileKey.length < 11) return undefined;
  if (methods.includes('aes256') && fileKey.length !== 32) return undefined;

  const apply = (method: Method, data: Uint8Array, num: number, gen: number): Uint8Array => {
    if (method === 'identity') return data;
    if (method === 'aes256') return aesDecrypt(fileKey, data);
    // Algorithm 1: the object's own key
    const salt = method === 'aes128' ? [Buffer.from('sAlT', 'latin1')] : [];
    const which = Buffer.from([num, num >> 8, num >> 16, gen, gen >> 8].map((b) => b & 0xff));
    const objectKey = md5(fileKey, which, ...salt).subarray(0, Math.min(fileKey.length + 5, 16));
    return method === 'rc4' ? rc4(objectKey, data) : aesDecrypt(objectKey, data);
  };
  return {
    encryptMetadata,
    string: (bytes, num, gen) => apply(stringMethod, bytes, num, gen),
    stream: (bytes, num, gen, filter) => {
      const method = filter === undefined ? streamMethod : filterMethod(cf, filter);
      return method ? apply(method, bytes, num, gen) : bytes;
    },
  };
}
