import { ADOBE_GLYPH_LIST } from '../../generated/adobe-glyph-list.js';

let names: Set<string> | undefined;

/** The Adobe Glyph List's names, parsed once on first use. */
function aglNames(): Set<string> {
  names ??= new Set(ADOBE_GLYPH_LIST.split(';').map((entry) => entry.slice(0, entry.indexOf(' '))));
  return names;
}

const isScalar = (code: number) => code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);

/** One component of a glyph name: an AGL name, `uniXXXX` (one or more BMP values) or `uXXXX` to `uXXXXXX`. */
function componentMaps(component: string): boolean {
  if (aglNames().has(component)) return true;
  const uni = /^uni((?:[0-9A-F]{4})+)$/.exec(component);
  if (uni) return uni[1]!.match(/.{4}/g)!.every((hex) => isScalar(Number.parseInt(hex, 16)));
  const u = /^u([0-9A-F]{4,6})$/.exec(component);
  return u !== null && isScalar(Number.parseInt(u[1]!, 16));
}

/**
 * Whether a glyph name maps to Unicode by the Adobe Glyph List specification, as ISO 32000-1 (9.10.2) lets a
 * simple font's `/Differences` stand for a ToUnicode map: the part before the first period, split at
 * underscores, every component an AGL name or a `uni`/`u` code.
 */
export function glyphNameMapsToUnicode(name: string): boolean {
  const stem = name.split('.')[0]!;
  return stem !== '' && stem.split('_').every((component) => component !== '' && componentMaps(component));
}
