import { createHash } from 'node:crypto';
import type { CosFile } from '../../cos/file.js';
import { isDict, isStream, PdfName, PdfRef, type PdfValue } from '../../cos/syntax.js';
import { familyOf } from './spaces.js';
import type { ModelNode } from '../node.js';

/** A Separation colour space met (painted with, or in a DeviceN's /Colorants). */
export interface SeparationNode extends ModelNode {
  colorant: string;
  /** The family of its alternate space. */
  alternate: string | undefined;
  /** Where a Separation of the same name with another alternate space or tint transform was met first. */
  differsFrom: string | undefined;
  /** What differs from it: `alternate space`, `tint transform`, or both. */
  differences: string[];
}

/** The first Separation of each colorant name met in a file: where, and its alternate and tint transform. */
interface FirstSeparation {
  where: string;
  alternate: string;
  tint: string;
}

const firsts = new WeakMap<CosFile, Map<string, FirstSeparation>>();
const canons = new WeakMap<CosFile, Map<number, string>>();

const MAX_CANON_DEPTH = 12;
const MAX_STREAM_BYTES = 4 * 1024 * 1024;
/** Entries that say how a stream is stored, not what it is. */
const STORAGE_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL', 'F', 'FFilter', 'FDecodeParms']);

/**
 * A Separation met, compared with the first of its colorant name in the file: as objects, with references
 * followed and streams compared by their decoded data (not how they are compressed or whether direct).
 * Pages judged in one process share what they met; each page still compares within itself.
 */
export function separationCanon(
  cos: CosFile,
  colorant: string,
  space: PdfValue[],
  where: string,
): SeparationNode {
  let known = firsts.get(cos);
  if (!known) {
    known = new Map();
    firsts.set(cos, known);
  }
  const alternate = canon(cos, space[2], 0);
  const tint = canon(cos, space[3], 0);
  const family = familyOf(cos, space[2]);
  const first = known.get(colorant);
  if (!first) {
    known.set(colorant, { where, alternate, tint });
    return { where, colorant, alternate: family, differsFrom: undefined, differences: [] };
  }
  const differences = [
    ...(first.alternate !== alternate ? ['alternate space'] : []),
    ...(first.tint !== tint ? ['tint transform'] : []),
  ];
  return {
    where,
    colorant,
    alternate: family,
    differsFrom: differences.length > 0 ? first.where : undefined,
    differences,
  };
}

/** A PDF object written out in one canonical way, to compare objects. */
function canon(cos: CosFile, value: PdfValue | undefined, depth: number): string {
  if (depth > MAX_CANON_DEPTH) return '…';
  if (value instanceof PdfRef) {
    let cache = canons.get(cos);
    if (!cache) {
      cache = new Map();
      canons.set(cos, cache);
    }
    const known = cache.get(value.num);
    if (known !== undefined) return known;
    cache.set(value.num, `@${value.num}`); // a cycle reads as the reference
    const text = canon(cos, cos.resolve(value), depth + 1);
    cache.set(value.num, text);
    return text;
  }
  if (value === undefined) return 'undefined';
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (value instanceof PdfName) return `/${value.name}`;
  if (value instanceof Uint8Array) return `<${Buffer.from(value).toString('hex')}>`;
  if (Array.isArray(value)) return `[${value.map((v) => canon(cos, v, depth + 1)).join(' ')}]`;
  if (isStream(value)) {
    const entries = [...value.stream.dict].filter(([key]) => !STORAGE_KEYS.has(key));
    const data = cos.streamBytes(value, MAX_STREAM_BYTES);
    const digest = data ? createHash('sha1').update(data).digest('hex') : `unread@${value.stream.dataStart}`;
    return `${dictCanon(cos, entries, depth)}stream:${digest}`;
  }
  if (isDict(value)) return dictCanon(cos, [...value], depth);
  return '?';
}

function dictCanon(cos: CosFile, entries: [string, PdfValue][], depth: number): string {
  return `<<${entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, v]) => `/${key} ${canon(cos, v, depth + 1)}`)
    .join(' ')}>>`;
}
