import type { FixturePairs } from '../../../fixtures.js';
import { cmapProgram, type0Page } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { withCMap, wmodePair } from '../../part1/6.3-fonts/6.3.3.3.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, type0Page({})),
    // a CMap name that ISO 32000-1 does not predefine, not embedded
    fail: (part) => pdfaFile(part, type0Page({ encoding: '/Fixture-H' })),
  },
  2: wmodePair,
  3: {
    pass: (part) =>
      withCMap(part, '/CMapName /Fixture-H /UseCMap /Identity-H', cmapProgram({ usecmap: 'Identity-H' })),
    fail: (part) =>
      withCMap(part, '/CMapName /Fixture-H /UseCMap /Other-H', cmapProgram({ usecmap: 'Other-H' })),
  },
};
