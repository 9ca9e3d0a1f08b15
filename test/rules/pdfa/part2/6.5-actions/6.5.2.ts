import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

const GO = '<< /S /GoTo /D [3 0 R /Fit] >>';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { catalog: `/OpenAction ${GO}` }),
    fail: (part) => pdfaFile(part, { catalog: `/AA << /WC ${GO} >>` }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { page: `/AA << /O ${GO} >>` }),
  },
};
