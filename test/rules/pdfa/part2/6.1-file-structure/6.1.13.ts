import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: ['[2147483647 -2147483648]'] }),
    // in content, as an operand
    fail: (part) => pdfaFile(part, { content: '0 0 1 rg\n-2147483649 10 100 100 re\nf\n' }),
  },
  2: {
    pass: (part) => pdfaFile(part, { objects: ['[340000000000000000000000000000000000000.0]'] }),
    fail: (part) => pdfaFile(part, { objects: ['[-3404000000000000000000000000000000000000.0]'] }),
  },
  3: {
    pass: (part) => pdfaFile(part, { objects: [`(${'a'.repeat(32_767)})`] }),
    // in content, as an operand
    fail: (part) =>
      pdfaFile(part, {
        content: `/Span << /ActualText (${'a'.repeat(32_768)}) >> BDC\n0 0 1 rg\n10 10 100 100 re\nf\nEMC\n`,
      }),
  },
  4: {
    pass: (part) => pdfaFile(part, { objects: [`/${'n'.repeat(127)}`] }),
    // in the cell of a tiling pattern the page's resources hold
    fail: (part) =>
      pdfaFile(part, {
        resources: `/Pattern << /P1 ${ref(0)} >>`,
        objects: [
          stream(
            '/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 10 10] /XStep 10 /YStep 10 /Resources << >>',
            `/${'n'.repeat(128)} BMC 0 0 1 rg 0 0 5 5 re f EMC\n`,
          ),
        ],
      }),
  },
  5: {
    pass: (part) => pdfaFile(part, { objects: [`[0.0 0.${'0'.repeat(36)}12]`] }),
    fail: (part) => pdfaFile(part, { objects: [`[0.${'0'.repeat(38)}1]`] }),
  },
  8: {
    pass: (part) =>
      pdfaFile(part, { content: `${'q '.repeat(28)}\n0 0 1 rg\n10 10 100 100 re\nf\n${'Q '.repeat(28)}\n` }),
    fail: (part) =>
      pdfaFile(part, { content: `${'q '.repeat(29)}\n0 0 1 rg\n10 10 100 100 re\nf\n${'Q '.repeat(29)}\n` }),
  },
  11: {
    pass: (part) => pdfaFile(part, { page: '/CropBox [0 0 3 14400]' }),
    fail: (part) => pdfaFile(part, { page: '/TrimBox [0 0 612 2.5]' }),
  },
};
