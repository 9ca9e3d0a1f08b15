import type { FixturePairs } from '../../fixtures.js';
import { cmapProgram } from '../../font-programs.js';
import { stream } from '../../pdfa-file.js';
import { type0WithUnicode, uaFontFile } from './ua-fonts.js';

const SYSTEM = '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>';
const JAPAN_CID_FONT =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /CIDToGIDMap /Identity /DW 1000';

/** A Type 0 font with an embedded CMap: its stream dictionary's entries and its program. */
const withCMap = (entries: string, program: string) =>
  uaFontFile(
    type0WithUnicode({ encoding: '12 0 R', extra: [stream(`/Type /CMap ${SYSTEM} ${entries}`, program)] }),
  );

export const fixtures: FixturePairs = {
  1: {
    pass: () => uaFontFile(type0WithUnicode({})),
    // a CMap name that ISO 32000-1 does not predefine, not embedded
    fail: () => uaFontFile(type0WithUnicode({ encoding: '/Fixture-H' })),
  },
  2: {
    pass: () => withCMap('/CMapName /Fixture-V /WMode 1', cmapProgram({ name: 'Fixture-V', wmode: 1 })),
    fail: () => withCMap('/CMapName /Fixture-V /WMode 1', cmapProgram({ name: 'Fixture-V', wmode: 0 })),
  },
  3: {
    pass: () => withCMap('/CMapName /Fixture-H /UseCMap /Identity-H', cmapProgram({ usecmap: 'Identity-H' })),
    fail: () => withCMap('/CMapName /Fixture-H /UseCMap /Other-H', cmapProgram({ usecmap: 'Other-H' })),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // a predefined CMap of ISO 32000-1 Table 118 need not be embedded
  '7.21.3.3-1 a predefined CMap, not embedded': () =>
    uaFontFile(type0WithUnicode({ encoding: '/90ms-RKSJ-H', cidFont: JAPAN_CID_FONT })),
};
