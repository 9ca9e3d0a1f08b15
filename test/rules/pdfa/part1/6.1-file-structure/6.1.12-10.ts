import type { FixturePairs } from '../../../fixtures.js';
import { cmapProgram } from '../../../font-programs.js';
import { withCMap } from '../6.3-fonts/6.3.3.3.js';

/** Shared with ISO 19005-2 6.1.13-10: one code mapped to CID 70,000. */
export const cidLimitPair = {
  pass: (part: 1 | 2 | 3) => withCMap(part, '/CMapName /Fixture-H', cmapProgram()),
  fail: (part: 1 | 2 | 3) =>
    withCMap(
      part,
      '/CMapName /Fixture-H',
      cmapProgram({
        mappings: '1 begincidrange\n<0000> <FFFF> 0\nendcidrange\n1 begincidchar\n<FFFF> 70000\nendcidchar',
      }),
    ),
};

export const fixtures: FixturePairs = { 10: cidLimitPair };
