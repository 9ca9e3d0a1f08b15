import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /GoTo /D [3 0 R /Fit] >>' }),
    // an allowed action whose /Next is a forbidden one
    fail: (part) =>
      pdfaFile(part, {
        catalog: '/OpenAction << /S /GoTo /D [3 0 R /Fit] /Next << /S /Launch /F (run.exe) >> >>',
      }),
  },
  2: {
    pass: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /Named /N /NextPage >>' }),
    fail: (part) => pdfaFile(part, { catalog: '/OpenAction << /S /Named /N /Print >>' }),
  },
};
