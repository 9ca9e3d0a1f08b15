import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile, UA_CATALOG } from '../../pdfua-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfuaFile(),
    fail: () =>
      pdfuaFile({
        uaCatalog: UA_CATALOG.replace('/MarkInfo << /Marked true >>', '/MarkInfo << /Marked false >>'),
      }),
  },
};
