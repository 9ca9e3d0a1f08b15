import { readSync } from 'node:fs';
import { constants, inflateSync } from 'node:zlib';
import { ascii85Decode, asciiHexDecode } from './ascii-filters.js';
import { type Decryptor, standardDecryptor } from './decrypt.js';
import {
  isDict,
  isStream,
  latin1,
  Lexer,
  nameOf,
  type PdfDict,
  PdfRef,
  type PdfStream,
  type PdfValue,
  SyntaxFailure,
} from './syntax.js';

/**
 * A PDF's objects read straight from the file: the xref (tables, streams, hybrids, `/Prev` chains), object
 * streams, and streams coded with Flate, ASCIIHex and ASCII85. PDFium reads the pages; this answers what
 * PDFium's API does not expose (the catalog's metadata and output intents, font and image dictionaries). It reads what it is asked, on
 * demand, in bounded windows; a file whose xref is broken is scanned for its objects once, as PDF readers do.
 * An encrypted file opened with the empty user password (as PDFium opens it) is decrypted as it is read: its
 * objects' strings when they are loaded, its streams' data when they are decoded; any other stays as stored.
 */

export type XrefEntry = { offset: number } | { container: number; index: number };

const FIRST_WINDOW = 16 * 1024;
const MAX_WINDOW = 8 * 1024 * 1024;
const MAX_XREF_SECTIONS = 64;
const MAX_REF_CHAIN = 32;
/** The most a decoded stream (an object stream, an xref stream, XMP) may inflate to. */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;

export class CosFile {
  private readonly xref = new Map<number, XrefEntry>();
  private readonly objects = new Map<number, PdfValue | undefined>();
  private readonly containers = new Map<number, { bytes: Uint8Array; offsets: Map<number, number> } | null>();
  private reconstructed = false;
  private decryptor: Decryptor | undefined;
  /** The /Encrypt dictionary's own object, whose strings are never encrypted (7.6.1). */
  private encryptNum: number | undefined;
  /** Which object each stream read from the file is, for its key. */
  private readonly streamOwners = new WeakMap<PdfStream, { num: number; gen: number }>();
  trailer: PdfDict = new Map();
  /**
   * The trailer of the newest cross-reference section alone (the one `startxref` names: a linearized file's
   * first-page trailer), without what older sections add through `/Prev`.
   */
  newestTrailer: PdfDict | undefined;

  /**
   * `source`: an open file's descriptor, or the file's bytes in memory (a file embedded in another, judged as
   * a file of its own).
   */
  constructor(
    private readonly source: number | Uint8Array,
    readonly size: number,
  ) {
    try {
      this.readXrefChain();
    } catch (error) {
      if (!(error instanceof SyntaxFailure) && !(error instanceof RangeError)) throw error;
    }
    this.openSecurity();
    if (!isDict(this.get(this.trailer, 'Root'))) this.reconstruct();
  }

  read(offset: number, length: number): Uint8Array {
    const size = Math.max(0, Math.min(length, this.size - offset));
    if (typeof this.source !== 'number')
      return this.source.subarray(Math.max(0, offset), Math.max(0, offset) + size);
    const buffer = Buffer.allocUnsafe(size);
    const got = size > 0 ? readSync(this.source, buffer, 0, size, offset) : 0;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, got);
  }

  get catalog(): PdfDict | undefined {
    const root = this.get(this.trailer, 'Root');
    return isDict(root) ? root : undefined;
  }

  /** The file has an /Encrypt dictionary (whether or not it could be decrypted). */
  get encrypted(): boolean {
    return this.trailer.has('Encrypt');
  }

  /** The file is encrypted and read decrypted, its user password being empty. */
  get decrypted(): boolean {
    return this.decryptor !== undefined;
  }

  /** Strings and streams reach readers as stored ciphertext: the file is encrypted and could not be decrypted. */
  get ciphertext(): boolean {
    return this.encrypted && !this.decrypted;
  }

  /**
   * Sets up decryption from the trailer's /Encrypt (none when it is absent, not the standard handler's, or
   * needs a password); what was read before is read again, decrypted.
   */
  private openSecurity(): void {
    this.decryptor = undefined;
    this.encryptNum = undefined;
    const reference = this.trailer.get('Encrypt');
    if (reference === undefined) return;
    const encrypt = this.resolve(reference);
    const id = this.resolve(this.trailer.get('ID'));
    const first = Array.isArray(id) ? this.resolve(id[0]) : undefined;
    try {
      this.decryptor = isDict(encrypt)
        ? standardDecryptor(encrypt, first instanceof Uint8Array ? first : undefined)
        : undefined;
    } catch {
      // a malformed /Encrypt (a key of a wrong length for the cipher) leaves the file as it is stored
      this.decryptor = undefined;
    }
    if (!this.decryptor) return;
    if (reference instanceof PdfRef) this.encryptNum = reference.num;
    this.objects.clear();
    this.containers.clear();
  }

  /** `value` with references followed. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    for (let hops = 0; value instanceof PdfRef; hops++) {
      if (hops > MAX_REF_CHAIN) return undefined;
      value = this.object(value.num);
    }
    return value;
  }

  get(dict: PdfDict | undefined, key: string): PdfValue | undefined {
    return dict ? this.resolve(dict.get(key)) : undefined;
  }

  dict(dict: PdfDict | undefined, key: string): PdfDict | undefined {
    const value = this.get(dict, key);
    if (isDict(value)) return value;
    return isStream(value) ? value.stream.dict : undefined;
  }

  array(dict: PdfDict | undefined, key: string): PdfValue[] {
    const value = this.get(dict, key);
    return Array.isArray(value) ? value : [];
  }

  /**
   * A page's entry as written on it or on the nearest page tree node above it that has one (ISO 32000-1
   * 7.7.3.4: Resources, MediaBox, CropBox and Rotate are inherited), not resolved.
   */
  inherited(page: PdfDict, key: string): PdfValue | undefined {
    let node: PdfDict | undefined = page;
    for (let depth = 0; node && depth < 64; depth++) {
      const value = node.get(key);
      if (value !== undefined) return value;
      node = this.dict(node, 'Parent');
    }
    return undefined;
  }

  /** Every object the cross-reference lists: at an offset of the file, or in an object stream. */
  listed(): IterableIterator<[number, XrefEntry]> {
    return this.xref.entries();
  }

  /** An object stream's decoded bytes and where each of its objects starts in them; null when unreadable. */
  objectStream(num: number): { bytes: Uint8Array; offsets: Map<number, number> } | null {
    return this.container(num) ?? null;
  }

  /** Object `num`, or undefined when the file does not hold it (a free or missing entry reads as null). */
  object(num: number): PdfValue | undefined {
    if (this.objects.has(num)) return this.objects.get(num);
    // a cycle of references through object streams ends here as undefined
    this.objects.set(num, undefined);
    let value = this.load(num);
    // an entry that points at no object means a broken xref; a number the xref lacks is simply absent
    if (value === undefined && this.xref.has(num) && !this.reconstructed) {
      this.reconstruct();
      value = this.load(num);
    }
    this.objects.set(num, value);
    return value;
  }

  private load(num: number): PdfValue | undefined {
    const entry = this.xref.get(num);
    if (!entry) return undefined;
    try {
      if ('offset' in entry) {
        const { value, gen } = this.objectAt(entry.offset, num);
        return this.decryptor && num !== this.encryptNum ? this.decryptObject(value, num, gen) : value;
      }
      const container = this.container(entry.container);
      const at = container?.offsets.get(num);
      if (container === undefined || container === null || at === undefined) return undefined;
      return new Lexer(container.bytes, at).value();
    } catch (error) {
      if (error instanceof SyntaxFailure || error instanceof RangeError) return undefined;
      throw error;
    }
  }

  /**
   * A loaded object's strings decrypted in place (it was parsed for this call alone), its stream's key noted;
   * an xref stream is not encrypted (7.6.1), nor a signature's /Contents (as PDFium reads them).
   */
  private decryptObject(value: PdfValue, num: number, gen: number): PdfValue {
    const decryptor = this.decryptor!;
    const walk = (item: PdfValue): PdfValue => {
      if (item instanceof Uint8Array) return decryptor.string(item, num, gen);
      if (Array.isArray(item)) for (let i = 0; i < item.length; i++) item[i] = walk(item[i]!);
      else if (isDict(item)) {
        // PDFium's test: /Type, else a field's /FT; a document time-stamp is a signature too (ISO 32000-2 12.8.5)
        const type = nameOf(item.get('Type') ?? item.get('FT'));
        const signature = type === 'Sig' || type === 'DocTimeStamp';
        for (const [key, entry] of item)
          if (!(signature && key === 'Contents' && entry instanceof Uint8Array)) item.set(key, walk(entry));
      }
      return item;
    };
    if (isStream(value)) {
      if (nameOf(value.stream.dict.get('Type')) === 'XRef') return value;
      this.streamOwners.set(value.stream, { num, gen });
      walk(value.stream.dict);
      return value;
    }
    return walk(value);
  }

  /** The indirect object at `offset` (`num gen obj ...`); a stream's data position is made absolute. */
  private objectAt(offset: number, num?: number): { value: PdfValue; gen: number } {
    for (let window = FIRST_WINDOW; ; window *= 4) {
      const bytes = this.read(offset, window);
      const lexer = new Lexer(bytes);
      try {
        const header = `${lexer.word()} ${lexer.word()} ${lexer.word()}`;
        const match = /^(\d+) (\d+) obj$/.exec(header);
        if (!match || (num !== undefined && Number(match[1]) !== num))
          throw new SyntaxFailure('no object here');
        const value = lexer.value();
        if (isStream(value)) value.stream.dataStart += offset;
        return { value, gen: Number(match[2]) };
      } catch (error) {
        const whole = bytes.length < window;
        if (!(error instanceof SyntaxFailure) || whole || window >= MAX_WINDOW) throw error;
      }
    }
  }

  /**
   * A stream's bytes, decoded through its filters (Flate with its predictors, ASCIIHex, ASCII85, in any
   * chain); undefined when a filter is another or the result is too big.
   */
  streamBytes(value: { stream: PdfStream }, limit = MAX_DECODED_BYTES): Uint8Array | undefined {
    const { dict, dataStart } = value.stream;
    let length = this.get(dict, 'Length');
    if (typeof length !== 'number' || length < 0 || dataStart + length > this.size) {
      length = this.findEndstream(dataStart, limit);
      if (length === undefined) return undefined;
    }
    if (length > limit) return undefined;
    let stored = this.read(dataStart, length);
    const filters = this.get(dict, 'Filter');
    const names = (Array.isArray(filters) ? filters : filters === undefined ? [] : [filters]).map((f) =>
      nameOf(this.resolve(f)),
    );
    // one parameter dictionary per filter: a dictionary for one filter, an array (nulls allowed) for a chain
    const parms = this.resolve(dict.get('DecodeParms') ?? dict.get('DP'));
    const owner = this.streamOwners.get(value.stream);
    if (this.decryptor && owner) stored = this.decryptStream(stored, owner, dict, names, parms);
    if (names.length === 0) return stored;
    let data: Uint8Array | undefined = stored;
    for (const [i, name] of names.entries()) {
      if (data === undefined) return undefined;
      const params = this.resolve(Array.isArray(parms) ? parms[i] : i === 0 ? parms : undefined);
      data = this.decode(data, name, isDict(params) ? params : undefined, limit);
      if (data !== undefined && data.length > limit) return undefined;
    }
    return data;
  }

  /**
   * A stream's stored data decrypted before its filters: with the crypt filter its /Crypt filter names (7.4.10;
   * /Identity by default), else the document's; metadata in the clear when /EncryptMetadata is false.
   */
  private decryptStream(
    stored: Uint8Array,
    owner: { num: number; gen: number },
    dict: PdfDict,
    names: (string | undefined)[],
    parms: PdfValue | undefined,
  ): Uint8Array {
    const decryptor = this.decryptor!;
    if (!decryptor.encryptMetadata && nameOf(this.get(dict, 'Type')) === 'Metadata') return stored;
    let filter: string | undefined;
    if (names[0] === 'Crypt') {
      const params = this.resolve(Array.isArray(parms) ? parms[0] : parms);
      filter = (isDict(params) ? nameOf(this.get(params, 'Name')) : undefined) ?? 'Identity';
    }
    try {
      return decryptor.stream(stored, owner.num, owner.gen, filter);
    } catch {
      return stored;
    }
  }

  /** One filter's decoding; undefined for a filter this reader does not decode (LZW, images' own). */
  private decode(
    data: Uint8Array,
    filter: string | undefined,
    params: PdfDict | undefined,
    limit: number,
  ): Uint8Array | undefined {
    switch (filter) {
      case 'FlateDecode':
      case 'Fl':
        try {
          const inflated = inflateSync(data, {
            maxOutputLength: limit,
            finishFlush: constants.Z_SYNC_FLUSH,
          });
          return unpredict(inflated, params, this);
        } catch {
          return undefined;
        }
      case 'ASCIIHexDecode':
      case 'AHx':
        return asciiHexDecode(data);
      case 'ASCII85Decode':
      case 'A85':
        return ascii85Decode(data);
      // its decryption came before the filters
      case 'Crypt':
        return data;
      default:
        return undefined;
    }
  }

  private findEndstream(from: number, limit: number): number | undefined {
    for (let at = from; at < this.size && at - from <= limit; at += 64 * 1024) {
      const chunk = latin1(this.read(at, 64 * 1024 + 9), 0, 64 * 1024 + 9);
      const found = chunk.indexOf('endstream');
      if (found !== -1) {
        let end = at + found;
        const before = this.read(end - 2, 2);
        if (before[1] === 10) end -= before[0] === 13 ? 2 : 1;
        else if (before[1] === 13) end -= 1;
        return end - from;
      }
    }
    return undefined;
  }

  private container(num: number) {
    if (this.containers.has(num)) return this.containers.get(num);
    this.containers.set(num, null);
    const value = this.object(num);
    let parsed: { bytes: Uint8Array; offsets: Map<number, number> } | null = null;
    if (isStream(value)) {
      const bytes = this.streamBytes(value);
      const count = this.get(value.stream.dict, 'N');
      const first = this.get(value.stream.dict, 'First');
      if (bytes && typeof count === 'number' && typeof first === 'number') {
        const lexer = new Lexer(bytes.subarray(0, first));
        const offsets = new Map<number, number>();
        for (let i = 0; i < count; i++) {
          const [numberWord, atWord] = [lexer.word(), lexer.word()];
          const objectNumber = Number(numberWord);
          const at = Number(atWord);
          // the header's end ('' is no number, whatever Number('') says) ends a hostile /N early
          if (numberWord === '' || atWord === '' || !Number.isInteger(objectNumber) || !Number.isInteger(at))
            break;
          offsets.set(objectNumber, first + at);
        }
        parsed = { bytes, offsets };
      }
    }
    this.containers.set(num, parsed);
    return parsed;
  }

  private readXrefChain(): void {
    const tail = latin1(this.read(Math.max(0, this.size - 2048), 2048), 0, 2048);
    const match = /startxref\s+(\d+)/g;
    let offset: number | undefined;
    for (let m = match.exec(tail); m; m = match.exec(tail)) offset = Number(m[1]);
    const seen = new Set<number>();
    const pending: number[] = offset === undefined ? [] : [offset];
    for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
      if (seen.has(next) || seen.size >= MAX_XREF_SECTIONS || next >= this.size) continue;
      seen.add(next);
      const trailer = this.readXrefSection(next);
      this.newestTrailer ??= trailer;
      for (const [key, value] of trailer) if (!this.trailer.has(key)) this.trailer.set(key, value);
      // a hybrid file's xref stream comes before its own /Prev
      const hybrid = trailer.get('XRefStm');
      if (typeof hybrid === 'number') pending.unshift(hybrid);
      const prev = trailer.get('Prev');
      if (typeof prev === 'number') pending.push(prev);
    }
  }

  private setEntry(num: number, entry: XrefEntry): void {
    if (!this.xref.has(num)) this.xref.set(num, entry);
  }

  private readXrefSection(offset: number): PdfDict {
    const head = this.read(offset, 4);
    if (latin1(head, 0, 4) !== 'xref') {
      const { value } = this.objectAt(offset);
      if (!isStream(value)) throw new SyntaxFailure('no xref here');
      this.readXrefStream(value);
      return value.stream.dict;
    }
    for (let window = 64 * 1024; ; window *= 4) {
      const bytes = this.read(offset + 4, window);
      const lexer = new Lexer(bytes);
      try {
        const entries: [number, XrefEntry][] = [];
        for (;;) {
          const word = lexer.word();
          if (word === 'trailer') {
            const trailer = lexer.value();
            if (!isDict(trailer)) throw new SyntaxFailure('no trailer');
            for (const [num, entry] of entries) this.setEntry(num, entry);
            return trailer;
          }
          const start = Number(word);
          const count = Number(lexer.word());
          if (!Number.isInteger(start) || !Number.isInteger(count) || word === '')
            throw new SyntaxFailure('bad xref');
          for (let i = 0; i < count; i++) {
            const at = Number(lexer.word());
            lexer.word();
            const kind = lexer.word();
            if (kind === 'n' && at > 0) entries.push([start + i, { offset: at }]);
            else if (kind !== 'n' && kind !== 'f') throw new SyntaxFailure('bad xref entry');
          }
        }
      } catch (error) {
        if (!(error instanceof SyntaxFailure) || bytes.length < window || window >= MAX_WINDOW) throw error;
      }
    }
  }

  private readXrefStream(value: { stream: PdfStream }): void {
    const dict = value.stream.dict;
    const widths = this.array(dict, 'W').map((w) => (typeof w === 'number' ? w : 0));
    const bytes = this.streamBytes(value);
    if (!bytes || widths.length < 3) throw new SyntaxFailure('unreadable xref stream');
    const size = this.get(dict, 'Size');
    const index = this.array(dict, 'Index').map(Number);
    const ranges = index.length >= 2 ? index : [0, typeof size === 'number' ? size : 0];
    const rowLength = widths[0]! + widths[1]! + widths[2]!;
    let at = 0;
    const field = (width: number, fallback: number) => {
      if (width === 0) return fallback;
      let n = 0;
      for (let i = 0; i < width; i++) n = n * 256 + bytes[at++]!;
      return n;
    };
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      for (let i = 0; i < ranges[r + 1]! && at + rowLength <= bytes.length; i++) {
        const type = field(widths[0]!, 1);
        const second = field(widths[1]!, 0);
        const third = field(widths[2]!, 0);
        const num = ranges[r]! + i;
        if (type === 1 && second > 0) this.setEntry(num, { offset: second });
        else if (type === 2) this.setEntry(num, { container: second, index: third });
      }
    }
  }

  /** Rebuilds the xref by scanning the file for `num gen obj`, the last definition of a number winning. */
  private reconstruct(): void {
    if (this.reconstructed) return;
    this.reconstructed = true;
    const found = new Map<number, number>();
    // objects that may hold others or name the catalog: only these are parsed during the scan
    const special = new Set<number>();
    const chunk = 1024 * 1024;
    const header = /(\d+)[ \t\r\n\f\0]+(\d+)[ \t\r\n\f\0]+obj\b/g;
    const trailers: number[] = [];
    for (let at = 0; at < this.size; at += chunk) {
      const text = latin1(this.read(at, chunk + 512), 0, Math.min(chunk + 512, this.size - at));
      for (let m = header.exec(text); m; m = header.exec(text)) {
        if (m.index >= chunk) break;
        const start = m.index > 0 ? text.charCodeAt(m.index - 1) : 32;
        if (start >= 0x30 && start <= 0x39) continue;
        found.set(Number(m[1]), at + m.index);
        if (/\/Type\s*\/(ObjStm|Catalog|XRef)\b/.test(text.slice(m.index, m.index + 512)))
          special.add(Number(m[1]));
      }
      header.lastIndex = 0;
      for (let t = text.indexOf('trailer'); t !== -1 && t < chunk; t = text.indexOf('trailer', t + 7))
        trailers.push(at + t + 7);
    }
    this.xref.clear();
    this.objects.clear();
    this.containers.clear();
    for (const [num, offset] of found) this.xref.set(num, { offset });
    for (const offset of trailers.reverse()) {
      try {
        const trailer = new Lexer(this.read(offset, FIRST_WINDOW)).value();
        if (isDict(trailer) && trailer.get('Root') instanceof PdfRef) {
          this.trailer = trailer;
          this.newestTrailer = trailer;
          break;
        }
      } catch (error) {
        if (!(error instanceof SyntaxFailure)) throw error;
      }
    }
    // the object streams read next are encrypted with the file
    this.openSecurity();
    // objects kept in object streams, and a catalog when no trailer names it
    for (const num of special) {
      const value = this.object(num);
      const dict = isStream(value) ? value.stream.dict : isDict(value) ? value : undefined;
      const type = nameOf(dict?.get('Type'));
      if (type === 'ObjStm') {
        const container = this.container(num);
        for (const inner of container?.offsets.keys() ?? [])
          this.setEntry(inner, { container: num, index: 0 });
      } else if (type === 'XRef' && !this.trailer.has('Root') && dict?.get('Root') instanceof PdfRef) {
        this.trailer = dict;
      } else if (type === 'Catalog' && !this.trailer.has('Root')) {
        this.trailer = new Map([['Root', new PdfRef(num, 0)]]);
      }
    }
  }
}

/** Undoes a PNG predictor (7.4.4.4), as xref and object streams use; other predictors are left as they are. */
function unpredict(data: Uint8Array, params: PdfDict | undefined, file: CosFile): Uint8Array {
  const predictor = file.get(params, 'Predictor');
  if (typeof predictor !== 'number' || predictor < 10) return data;
  const number = (key: string, fallback: number) => {
    const value = file.get(params, key);
    return typeof value === 'number' && value > 0 ? value : fallback;
  };
  const bpp = Math.max(1, Math.ceil((number('Colors', 1) * number('BitsPerComponent', 8)) / 8));
  const rowLength = Math.ceil(
    (number('Colors', 1) * number('BitsPerComponent', 8) * number('Columns', 1)) / 8,
  );
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLength + 1)]!;
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const raw = data[src + i]!;
      const left = i >= bpp ? out[dst + i - bpp]! : 0;
      const up = r > 0 ? out[dst - rowLength + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp]! : 0;
      let value = raw;
      if (type === 1) value = raw + left;
      else if (type === 2) value = raw + up;
      else if (type === 3) value = raw + ((left + up) >> 1);
      else if (type === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - upLeft);
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      }
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}
