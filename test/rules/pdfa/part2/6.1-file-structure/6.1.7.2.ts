import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) =>
      pdfaFile(part, {
        objects: [
          stream('/Filter /ASCIIHexDecode', '616263>'),
          stream('/Filter /Crypt /DecodeParms << /Name /Identity >>', 'abc'),
        ],
      }),
    // a filter ISO 32000-1 does not define
    fail: (part) => pdfaFile(part, { objects: [stream('/Filter /BrotliDecode', 'abc')] }),
  },
};
