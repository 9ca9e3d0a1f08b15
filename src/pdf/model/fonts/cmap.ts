import type { CosFile } from '../../cos/file.js';
import type { PdfDict } from '../../cos/syntax.js';

/**
 * What an embedded CMap program says (Adobe Technical Note #5014, ISO 32000-1 9.7.5.3): its code space
 * ranges, the CID of each code, its `/WMode`, the CMap it uses (`usecmap`), and the largest CID it maps.
 */
export interface CMapProgram {
  /** `/WMode n def` in the program, when written. */
  wmode: number | undefined;
  /** The CMap named by `/Name usecmap`. */
  useCMap: string | undefined;
  /** The largest CID any `cidrange` or `cidchar` maps to; -1 when it maps none. */
  maxCid: number;
  /** The codes of a string and each one's CID (0 when the CMap maps it to none). */
  decode(bytes: Uint8Array): { code: number; cid: number }[];
}

interface Range {
  low: number;
  high: number;
  bytes: number;
}

const MAX_MAPPINGS = 200_000;

export function readCMap(text: string): CMapProgram {
  const wmode = /\/WMode\s+(\d+)\s+def/.exec(text)?.[1];
  const useCMap = /\/([^\s/<>[\](){}%]+)\s+usecmap/.exec(text)?.[1];
  const spaces: Range[] = [];
  for (const block of text.matchAll(/begincodespacerange([\s\S]*?)endcodespacerange/g))
    for (const [, low, high] of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      spaces.push({ low: hex(low!), high: hex(high!), bytes: Math.ceil(low!.length / 2) });
  const ranges: { low: number; high: number; cid: number }[] = [];
  const singles = new Map<number, number>();
  let maxCid = -1;
  for (const block of text.matchAll(/begincidrange([\s\S]*?)endcidrange/g))
    for (const [, low, high, first] of block[1]!.matchAll(/<([0-9a-fA-F]*)>\s*<([0-9a-fA-F]*)>\s*(\d+)/g)) {
      if (ranges.length >= MAX_MAPPINGS) break;
      const range = { low: hex(low!), high: hex(high!), cid: Number(first) };
      ranges.push(range);
      maxCid = Math.max(maxCid, range.cid + Math.max(0, range.high - range.low));
    }
  for (const block of text.matchAll(/begincidchar([\s\S]*?)endcidchar/g))
    for (const [, code, cid] of block[1]!.matchAll(/<([0-9a-fA-F]*)>\s*(\d+)/g)) {
      if (singles.size >= MAX_MAPPINGS) break;
      singles.set(hex(code!), Number(cid));
      maxCid = Math.max(maxCid, Number(cid));
    }
  const cidOf = (code: number) => {
    const single = singles.get(code);
    if (single !== undefined) return single;
    for (const r of ranges) if (code >= r.low && code <= r.high) return r.cid + (code - r.low);
    return 0;
  };
  return {
    wmode: wmode === undefined ? undefined : Number(wmode),
    useCMap,
    maxCid,
    decode: (bytes) => {
      const out: { code: number; cid: number }[] = [];
      for (let i = 0; i < bytes.length;) {
        let code = 0;
        let taken = 0;
        // the shortest code space range that holds the first bytes (ISO 32000-1 9.7.6.2)
        for (let n = 1; n <= 4 && i + n <= bytes.length; n++) {
          code = code * 256 + bytes[i + n - 1]!;
          if (spaces.some((s) => s.bytes === n && code >= s.low && code <= s.high)) {
            taken = n;
            break;
          }
        }
        if (taken === 0) {
          // a code no range holds: one byte, mapped to nothing
          out.push({ code: bytes[i]!, cid: 0 });
          i++;
          continue;
        }
        out.push({ code, cid: cidOf(code) });
        i += taken;
      }
      return out;
    },
  };
}

const hex = (digits: string) => Number.parseInt(digits || '0', 16);

const MAX_CMAP_BYTES = 4 * 1024 * 1024;
const cmapCache = new WeakMap<object, CMapProgram | undefined>();

type CMapStream = { stream: { dict: PdfDict; dataStart: number } };

/** A CMap stream's text read by `read`, once per stream; undefined when it cannot be decoded. */
function readOnce<T>(
  cache: WeakMap<object, T | undefined>,
  cos: CosFile,
  stream: CMapStream,
  read: (text: string) => T,
): T | undefined {
  if (cache.has(stream.stream)) return cache.get(stream.stream);
  const bytes = cos.streamBytes(stream, MAX_CMAP_BYTES);
  const value = bytes
    ? read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))
    : undefined;
  cache.set(stream.stream, value);
  return value;
}

/** An embedded CMap stream's program, read once. */
export const cmapProgram = (cos: CosFile, stream: CMapStream): CMapProgram | undefined =>
  readOnce(cmapCache, cos, stream, readCMap);

/** A ToUnicode CMap (ISO 32000-1 9.10.3): the UTF-16 code units each character code maps to. */
export interface ToUnicodeMap {
  /** The code's UTF-16 code units; undefined when the map does not map the code. */
  unicodeOf(code: number): number[] | undefined;
}

/** The UTF-16 code units of a CMap's hexadecimal destination string (`<00410042>`). */
function utf16Units(digits: string): number[] {
  const units: number[] = [];
  const even = digits.length % 2 === 0 ? digits : `${digits}0`;
  // a destination of one byte (`<41>`) is read as the code unit it names
  if (even.length === 2) return [Number.parseInt(even, 16)];
  for (let i = 0; i + 4 <= even.length; i += 4) units.push(Number.parseInt(even.slice(i, i + 4), 16));
  return units;
}

/** Reads the `bfchar` and `bfrange` mappings of a ToUnicode CMap program. */
export function readToUnicode(text: string): ToUnicodeMap {
  const singles = new Map<number, number[]>();
  const ranges: { low: number; high: number; first: number[] | undefined; list: number[][] | undefined }[] =
    [];
  let mappings = 0;
  for (const block of text.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, code, destination] of block[1]!.matchAll(/<([0-9a-fA-F\s]*)>\s*<([0-9a-fA-F\s]*)>/g)) {
      if (mappings++ >= MAX_MAPPINGS) break;
      singles.set(hex(code!.replace(/\s/g, '')), utf16Units(destination!.replace(/\s/g, '')));
    }
  for (const block of text.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, low, high, first, list] of block[1]!.matchAll(
      /<([0-9a-fA-F\s]*)>\s*<([0-9a-fA-F\s]*)>\s*(?:<([0-9a-fA-F\s]*)>|\[([^\]]*)\])/g,
    )) {
      if (mappings++ >= MAX_MAPPINGS) break;
      ranges.push({
        low: hex(low!.replace(/\s/g, '')),
        high: hex(high!.replace(/\s/g, '')),
        first: first === undefined ? undefined : utf16Units(first.replace(/\s/g, '')),
        list:
          list === undefined
            ? undefined
            : [...list.matchAll(/<([0-9a-fA-F\s]*)>/g)].map(([, d]) => utf16Units(d!.replace(/\s/g, ''))),
      });
    }
  return {
    unicodeOf: (code) => {
      const single = singles.get(code);
      if (single !== undefined) return single;
      for (const r of ranges) {
        if (code < r.low || code > r.high) continue;
        const offset = code - r.low;
        if (r.list) return r.list[offset];
        if (!r.first || r.first.length === 0) return r.first;
        // the last code unit of the destination counts up through the range (ISO 32000-1 9.10.3)
        const units = [...r.first];
        units[units.length - 1] = units.at(-1)! + offset;
        return units;
      }
      return undefined;
    },
  };
}

const toUnicodeCache = new WeakMap<object, ToUnicodeMap | undefined>();

/** A font's ToUnicode CMap stream, read once; undefined when it cannot be decoded. */
export const toUnicodeProgram = (cos: CosFile, stream: CMapStream): ToUnicodeMap | undefined =>
  readOnce(toUnicodeCache, cos, stream, readToUnicode);

/** The character collection a predefined CMap's name says (ISO 32000-1 9.7.5.2, Table 118). */
export function predefinedSystem(name: string): {
  registry: string | undefined;
  ordering: string | undefined;
  supplement: undefined;
} {
  const ordering = /^Uni(GB)|^GB/.test(name)
    ? 'GB1'
    : /^(UniCNS|CNS|B5pc|HKscs|ETen)/.test(name)
      ? 'CNS1'
      : /^(UniKS|KSC)/.test(name)
        ? 'Korea1'
        : /RKSJ|^UniJIS|^(EUC|Ext|Add)-|^[HV]$/.test(name)
          ? 'Japan1'
          : undefined;
  return { registry: ordering ? 'Adobe' : undefined, ordering, supplement: undefined };
}
