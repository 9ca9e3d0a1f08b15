import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: [stream('', 'abc')] }),
    // /Length 5 for 3 bytes of data
    fail: (part) => pdfaFile(part, { objects: [stream('', 'abc', { length: 5 })] }),
  },
  2: {
    pass: (part) => pdfaFile(part, { objects: ['<< /Length 3 >>\nstream\r\nabc\r\nendstream'] }),
    // a CR alone after the stream keyword
    fail: (part) => pdfaFile(part, { objects: ['<< /Length 3 >>\nstream\rabc\nendstream'] }),
  },
  3: {
    pass: (part) => pdfaFile(part, { objects: [stream('', '')] }),
    // the data in an external file
    fail: (part) => pdfaFile(part, { objects: [stream('/F (data.bin)', '')] }),
  },
};
