import type { CidFontNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { rendered } from './font-use.js';

/** What is wrong with a Type 2 CIDFont's /CIDToGIDMap: neither a stream nor /Identity. */
export function cidToGidMapFault(font: CidFontNode): string | undefined {
  if (font.cidToGidMap === 'stream' || font.cidToGidMap === '/Identity') return undefined;
  return font.cidToGidMap === 'none'
    ? 'it has no /CIDToGIDMap'
    : `its /CIDToGIDMap is ${font.cidToGidMap === 'other' ? 'neither a stream nor a name' : font.cidToGidMap}`;
}

/** ISO 19005-1, 6.3.3.2 CIDFonts. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-1'],
    clause: '6.3.3.2',
    test: 1,
    object: 'cid_font',
    check: 'composite_fonts',
    says: 'A Type 2 CIDFont used for rendering has a /CIDToGIDMap that is a stream or /Identity',
    fault: (font) => (font.subtype === 'CIDFontType2' && rendered(font) ? cidToGidMapFault(font) : undefined),
    fix: 'write /CIDToGIDMap /Identity (or the CID to glyph map as a stream) in the TrueType CIDFont',
  }),
];
export const reasons: Reason[] = [];
