import type { CidFontNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { cidToGidMapFault } from '../../part1/6.3-fonts/6.3.3.2.js';
import { drawn } from '../../part1/6.3-fonts/font-use.js';

/** ISO 19005-2 and -3, 6.2.11.3.2 CIDFonts. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.11.3.2',
    test: 1,
    object: 'cid_font',
    check: 'composite_fonts',
    says: 'An embedded Type 2 CIDFont has a /CIDToGIDMap that is a stream or /Identity',
    fault: (font) => embeddedCidToGidMapFault(font),
    fix: 'write /CIDToGIDMap /Identity (or the CID to glyph map as a stream) in the TrueType CIDFont',
  }),
];
/** What is wrong with a drawn, embedded Type 2 CIDFont's /CIDToGIDMap (shared with ISO 14289-1 7.21.3.2-1). */
export const embeddedCidToGidMapFault = (font: CidFontNode): string | undefined =>
  drawn(font) && font.subtype === 'CIDFontType2' && font.embedded ? cidToGidMapFault(font) : undefined;

export const reasons: Reason[] = [];
