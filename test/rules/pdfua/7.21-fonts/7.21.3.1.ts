import type { FixturePairs } from '../../fixtures.js';
import { cmapProgram } from '../../font-programs.js';
import { stream } from '../../pdfa-file.js';
import { type0WithUnicode, uaFontFile } from './ua-fonts.js';

/** A Type 0 font whose embedded CMap (object 12 before renumbering) is of `system`; its CIDFont is Adobe-Identity-0. */
const embeddedCMap = (system: string) =>
  uaFontFile(
    type0WithUnicode({
      encoding: '12 0 R',
      extra: [stream(`/Type /CMap /CMapName /Fixture-H /CIDSystemInfo << ${system} >>`, cmapProgram())],
    }),
  );

export const fixtures: FixturePairs = {
  1: {
    pass: () => embeddedCMap('/Registry (Adobe) /Ordering (Identity) /Supplement 0'),
    fail: () => embeddedCMap('/Registry (Adobe) /Ordering (GB1) /Supplement 0'),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // with Identity-H, any CIDSystemInfo may be used in the CIDFont
  '7.21.3.1-1 Identity-H with a CIDFont of another collection': () =>
    uaFontFile(
      type0WithUnicode({
        cidFont:
          '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >> /CIDToGIDMap /Identity /DW 1000 /W [1 [600 700]]',
      }),
    ),
};
