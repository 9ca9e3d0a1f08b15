import type { FixturePairs } from '../../../fixtures.js';
import { TEXT_FIELD, withField } from '../../../interactive-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    // an action entry written null is no action (ISO 32000-1, 7.3.7)
    pass: (part) =>
      pdfaFile(part, { catalog: '/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next null >> /AA null' }),
    // an action without a type is none of the permitted ones (a JavaScript one, without its /S)
    fail: (part) => pdfaFile(part, { catalog: "/OpenAction << /JS (app.alert\\('hi'\\)) >>" }),
  },
  2: {
    pass: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /Named /N /LastPage >>' }),
    fail: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /Named /N /Print >>' }),
  },
  3: {
    pass: (part) => withField(part, TEXT_FIELD),
    // a widget that links to a page: an action all the same
    fail: (part) => withField(part, `${TEXT_FIELD} /A << /S /GoTo /D [3 0 R /Fit] >>`),
  },
};
