import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { APPEARANCE, TEXT_FIELD, withField } from '../../../interactive-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

const FORMAT = '/AA << /F << /S /GoTo /D [3 0 R /Fit] >> >>';

/** A plain text field, and a field with /AA whose widget is its kid (shared with ISO 19005-2 6.4.1-2). */
export const fieldOfWidgetActionsPair: FixturePair = {
  pass: (part) => withField(part, TEXT_FIELD),
  // a field (object 10) whose widget (object 8) is a kid of its own; the field holds the /AA
  fail: (part) =>
    pdfaFile(part, {
      catalog: '/AcroForm << /Fields [10 0 R] >>',
      page: '/Annots [8 0 R]',
      objects: [
        '<< /Type /Annot /Subtype /Widget /Parent 10 0 R /Rect [10 10 110 30] /F 4 /AP << /N 9 0 R >> /P 3 0 R >>',
        APPEARANCE,
        `<< /FT /Tx /T (name) /Kids [8 0 R] ${FORMAT} >>`,
      ],
    }),
};

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withField(part, TEXT_FIELD),
    fail: (part) => withField(part, `${TEXT_FIELD} ${FORMAT}`),
  },
  2: fieldOfWidgetActionsPair,
  3: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { catalog: '/AA << /WC << /S /GoTo /D [3 0 R /Fit] >> >>' }),
  },
};
