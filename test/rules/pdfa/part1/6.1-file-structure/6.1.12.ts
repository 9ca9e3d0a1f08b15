import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';

const dictionary = (entries: number) =>
  `<< ${Array.from({ length: entries }, (_, i) => `/K${i} ${i}`).join(' ')} >>`;

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: ['[2147483647 -2147483648]'] }),
    fail: (part) => pdfaFile(part, { objects: ['[2147483648]'] }),
  },
  2: {
    pass: (part) => pdfaFile(part, { objects: ['[32767.0 -32767.0]'] }),
    // in content, as an operand
    fail: (part) => pdfaFile(part, { content: '0 0 1 rg\n10 10 100 32767.5 re\nf\n' }),
  },
  3: {
    pass: (part) => pdfaFile(part, { objects: [`(${'a'.repeat(65_535)})`] }),
    fail: (part) => pdfaFile(part, { objects: [`<${'61'.repeat(65_536)}>`] }),
  },
  4: {
    pass: (part) => pdfaFile(part, { objects: [`/${'n'.repeat(127)}`] }),
    fail: (part) => pdfaFile(part, { objects: [`/${'n'.repeat(126)}#41#42`] }),
  },
  5: {
    pass: (part) => pdfaFile(part, { objects: [`[${'0 '.repeat(8_191)}]`] }),
    fail: (part) => pdfaFile(part, { objects: [`[${'0 '.repeat(8_192)}]`] }),
  },
  6: {
    pass: (part) => pdfaFile(part, { objects: [dictionary(4_095)] }),
    fail: (part) => pdfaFile(part, { objects: [dictionary(4_096)] }),
  },
  8: {
    pass: (part) =>
      pdfaFile(part, {
        content: `${'q '.repeat(28)}\n0 0 1 rg\n10 10 100 100 re\nf\n${'Q '.repeat(28)}\n`,
      }),
    // in an annotation's appearance stream
    fail: (part) =>
      pdfaFile(part, {
        page: `/Annots [${ref(0)}]`,
        objects: [
          `<< /Type /Annot /Subtype /Square /Rect [0 0 10 10] /F 4 /AP << /N ${ref(1)} >> >>`,
          stream(
            '/Type /XObject /Subtype /Form /BBox [0 0 10 10]',
            `${'q '.repeat(29)}\n${'Q '.repeat(29)}\n`,
          ),
        ],
      }),
  },
};
