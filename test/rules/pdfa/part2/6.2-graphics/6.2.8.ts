import type { FixturePairs } from '../../../fixtures.js';
import { drawing, grayImage, image } from '../../../graphics-fixtures.js';
import { pdfaFile, ref } from '../../../pdfa-file.js';

const inline = (entries: string) =>
  `q 10 0 0 10 20 20 cm\nBI /W 1 /H 1 /CS /RGB /BPC 8 ${entries} ID \xff\x00\x00\nEI\nQ\n`;

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, drawing(image())),
    fail: (part) => pdfaFile(part, drawing(image(`/Alternates [<< /Image ${ref(1)} >>]`), [image()])),
  },
  2: {
    pass: (part) => pdfaFile(part, drawing(image())),
    fail: (part) =>
      pdfaFile(part, drawing(image('/OPI << /2.0 << /Type /OPI /Version 2.0 /F (hi.tif) >> >>'))),
  },
  3: {
    pass: (part) => pdfaFile(part, { content: inline('/I false') }),
    // an inline image: the I key
    fail: (part) => pdfaFile(part, { content: inline('/I true') }),
  },
  4: {
    // 16 bits per component is allowed from PDF/A-2 on
    pass: (part) => pdfaFile(part, drawing(image('/BitsPerComponent 16', '\xff\xff\x00\x00\x00\x00'))),
    fail: (part) =>
      pdfaFile(part, drawing(image('/BitsPerComponent 32', '\xff\xff\xff\xff' + '\x00'.repeat(8)))),
  },
  5: {
    pass: (part) =>
      pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 1')])),
    fail: (part) =>
      pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 2')])),
  },
};
