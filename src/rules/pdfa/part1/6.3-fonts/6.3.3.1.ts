import { rule, type Reason, type Rule } from '../../../rule.js';
import { drawn } from './font-use.js';

/** ISO 19005-1, 6.3.3.1 Composite fonts, general. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.3.1',
    test: 1,
    object: 'cmap',
    check: 'composite_fonts',
    says: "A Type 0 font's CIDFont and CMap have the same CIDSystemInfo Registry and Ordering, unless the CMap is Identity-H or Identity-V",
    fault: (cmap) => systemFault(cmap, false),
    fix: "encode the font with a CMap of its CIDFont's character collection, or with Identity-H (save the file again with a PDF/A writer)",
  }),
];

/** Shared with ISO 19005-2 6.2.11.3.1-1, which also compares the Supplement. */
export function systemFault(
  cmap: {
    drawnModes: number[];
    name: string | undefined;
    registry: string | undefined;
    ordering: string | undefined;
    supplement: number | undefined;
    cidFontSystem:
      | { registry: string | undefined; ordering: string | undefined; supplement: number | undefined }
      | undefined;
  },
  supplement: boolean,
): string | undefined {
  if (!drawn(cmap) || cmap.name === 'Identity-H' || cmap.name === 'Identity-V') return undefined;
  const font = cmap.cidFontSystem;
  // a CMap whose character collection is not known here (no CIDSystemInfo, an unknown name) is not judged
  if (cmap.registry === undefined || cmap.ordering === undefined) return undefined;
  if (!font) return 'its CIDFont has no CIDSystemInfo';
  if (font.registry !== cmap.registry || font.ordering !== cmap.ordering)
    return `the CIDFont is ${font.registry ?? '?'}-${font.ordering ?? '?'} and the CMap ${cmap.registry}-${cmap.ordering}`;
  if (
    supplement &&
    cmap.supplement !== undefined &&
    font.supplement !== undefined &&
    font.supplement > cmap.supplement
  )
    return `the CIDFont's Supplement ${font.supplement} is later than the CMap's ${cmap.supplement}`;
  return undefined;
}

export const reasons: Reason[] = [];
