import { rule, type Reason, type Rule } from '../../rule.js';
import { embeddedCidToGidMapFault } from '../../pdfa/part2/6.2.11-fonts/6.2.11.3.2.js';

/** ISO 14289-1, 7.21.3.2 Fonts: CIDFonts. The same test as ISO 19005-2 6.2.11.3.2-1. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.21.3.2',
    test: 1,
    object: 'cid_font',
    check: 'cid_to_gid_map',
    says: 'An embedded Type 2 CIDFont has a /CIDToGIDMap that is a stream or /Identity',
    fault: embeddedCidToGidMapFault,
    fix: 'write /CIDToGIDMap /Identity (or the CID to glyph map as a stream) in the TrueType CIDFont',
  }),
];

export const reasons: Reason[] = [];
