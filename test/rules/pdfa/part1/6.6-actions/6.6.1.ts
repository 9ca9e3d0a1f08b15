import type { FixturePairs } from '../../../fixtures.js';
import { TEXT_FIELD, withField } from '../../../interactive-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /GoTo /D [3 0 R /Fit] >>' }),
    fail: (part) => pdfaFile(part, { catalog: "/OpenAction << /S /JavaScript /JS (app.alert\\('hi'\\)) >>" }),
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
