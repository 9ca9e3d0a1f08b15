import type { FixturePairs } from '../../../fixtures.js';
import { cmapProgram, type0Page } from '../../../font-programs.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

/** A Type 0 font whose embedded CMap is of `registry`-`ordering`; its CIDFont is Adobe-Identity. */
export const embeddedCMapFile = (part: 1 | 2 | 3, system: string) =>
  pdfaFile(
    part,
    type0Page({
      encoding: '12 0 R',
      extra: [stream(`/Type /CMap /CMapName /Fixture-H /CIDSystemInfo << ${system} >>`, cmapProgram())],
    }),
  );

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => embeddedCMapFile(part, '/Registry (Adobe) /Ordering (Identity) /Supplement 0'),
    fail: (part) => embeddedCMapFile(part, '/Registry (Adobe) /Ordering (Japan1) /Supplement 0'),
  },
};
