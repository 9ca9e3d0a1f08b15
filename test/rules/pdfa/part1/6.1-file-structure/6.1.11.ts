import type { FixturePairs } from '../../../fixtures.js';
import { withEmbeddedFile } from '../../../interactive-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    // a file specification with /EF (it is in the EmbeddedFiles tree too)
    fail: (part) => withEmbeddedFile(part, 'plain text', { subtype: 'text#2Fplain' }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    // an EmbeddedFiles tree with no file in it
    fail: (part) => pdfaFile(part, { catalog: '/Names << /EmbeddedFiles << /Names [] >> >>' }),
  },
};
