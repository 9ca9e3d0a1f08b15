import type { FixturePairs } from '../../../fixtures.js';
import { FILE_SPEC, withEmbeddedFile } from '../../../interactive-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A PDF/A-2 file to embed; with `broken`, one that claims PDF/A-2 and breaks 6.11-1. */
const inner = (broken = false) => pdfaFile(2, broken ? { catalog: '/Requirements []' } : {});

export const fixtures: FixturePairs = {
  2: {
    pass: (part) => withEmbeddedFile(part, inner()),
    fail: (part) => withEmbeddedFile(part, inner(), { spec: FILE_SPEC.replace(' /UF (inner.pdf)', '') }),
  },
  5: {
    pass: (part) => withEmbeddedFile(part, inner()),
    fail: (part) => withEmbeddedFile(part, inner(true)),
  },
};
