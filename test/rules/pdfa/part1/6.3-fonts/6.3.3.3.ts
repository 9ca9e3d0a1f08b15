import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { cmapProgram, type0Page } from '../../../font-programs.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

const JAPAN_CID_FONT =
  '/Type /Font /Subtype /CIDFontType2 /BaseFont /Fixture /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /CIDToGIDMap /Identity /DW 1000';
const SYSTEM = '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>';

/** A Type 0 font with an embedded CMap: its stream dictionary's entries and its program. */
export const withCMap = (part: 1 | 2 | 3, entries: string, program: string) =>
  pdfaFile(
    part,
    type0Page({ encoding: '12 0 R', extra: [stream(`/Type /CMap ${SYSTEM} ${entries}`, program)] }),
  );

/** An embedded CMap whose /WMode is its program's, and one whose is not (shared with ISO 19005-2 6.2.11.3.3-2). */
export const wmodePair: FixturePair = {
  pass: (part) =>
    withCMap(part, '/CMapName /Fixture-V /WMode 1', cmapProgram({ name: 'Fixture-V', wmode: 1 })),
  fail: (part) =>
    withCMap(part, '/CMapName /Fixture-V /WMode 1', cmapProgram({ name: 'Fixture-V', wmode: 0 })),
};

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, type0Page({})),
    // a predefined CMap of the CIDFont's own character collection, not embedded (its codes are not read)
    fail: (part) => pdfaFile(part, type0Page({ encoding: '/90ms-RKSJ-H', cidFont: JAPAN_CID_FONT })),
  },
  2: wmodePair,
};
