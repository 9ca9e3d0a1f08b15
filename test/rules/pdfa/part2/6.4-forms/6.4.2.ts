import type { FixturePairs } from '../../../fixtures.js';
import { TEXT_FIELD, withField } from '../../../interactive-fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withField(part, TEXT_FIELD),
    fail: (part) =>
      withField(part, TEXT_FIELD, '/XFA 10 0 R', {
        objects: [stream('', '<xdp:xdp xmlns:xdp="http://ns.adobe.com/xdp/"/>')],
      }),
  },
  2: {
    // false, the default, asks for nothing: the published test passes it (the clause names the key)
    pass: (part) => pdfaFile(part, { catalog: '/NeedsRendering false' }),
    fail: (part) => pdfaFile(part, { catalog: '/NeedsRendering true' }),
  },
};
