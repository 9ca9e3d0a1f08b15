import type { CidFontNode, FontNode } from '../../../../pdf/model/fonts.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { drawn } from '../../part1/6.3-fonts/font-use.js';
import { charSetFault, cidSetFault } from '../../part1/6.3-fonts/6.3.5.js';

const spec = ['ISO 19005-2', 'ISO 19005-3'] as const;

/** ISO 19005-2 and -3, 6.2.11.4.2 Subset embedding. */
export const rules: Rule[] = [
  rule({
    specifications: spec,
    clause: '6.2.11.4.2',
    test: 1,
    object: 'font',
    check: 'font_subsets',
    says: "An embedded Type 1 subset's /CharSet, when present, lists every glyph of its program",
    fault: (font) => type1CharSetFault(font),
    fix: 'write the /CharSet from the embedded subset, or leave it out',
  }),
  rule({
    specifications: spec,
    clause: '6.2.11.4.2',
    test: 2,
    object: 'cid_font',
    check: 'font_subsets',
    says: "An embedded CIDFont subset's /CIDSet, when present, identifies every CID of its program",
    fault: (font) => cidSubsetFault(font),
    fix: 'write the /CIDSet from the embedded subset, or leave it out',
  }),
];
/** What is wrong with an embedded Type 1 subset's /CharSet (shared with ISO 14289-1 7.21.4.2-1). */
export const type1CharSetFault = (font: FontNode): string | undefined =>
  drawn(font) &&
  (font.subtype === 'Type1' || font.subtype === 'MMType1') &&
  font.fontFileKey !== undefined &&
  font.subsetTagged &&
  font.charSet
    ? charSetFault(font.charSet, font.programGlyphNames)
    : undefined;

/** What is wrong with an embedded CIDFont subset's /CIDSet (shared with ISO 14289-1 7.21.4.2-2). */
export const cidSubsetFault = (font: CidFontNode): string | undefined =>
  drawn(font) && font.embedded && font.subsetTagged && font.hasCidSet
    ? cidSetFault(font.cidSetCids, font.programCids)
    : undefined;

export const reasons: Reason[] = [];
