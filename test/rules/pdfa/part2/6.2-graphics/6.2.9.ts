import type { FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) =>
      pdfaFile(part, drawing(form('/OPI << /1.3 << /Type /OPI /Version 1.3 /F (hi.tif) >> >>'))),
  },
  2: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) => pdfaFile(part, drawing(form('/Ref << /F (other.pdf) /Page 0 >>'))),
  },
  3: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) => pdfaFile(part, drawing(stream('/Type /XObject /Subtype /PS', '0 0 moveto'))),
  },
};
