import type { FixturePairs } from '../../../fixtures.js';
import { drawing, grayImage, image } from '../../../graphics-fixtures.js';
import { pdfaFile, ref } from '../../../pdfa-file.js';

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
    pass: (part) => pdfaFile(part, drawing(image('/Interpolate false'))),
    fail: (part) => pdfaFile(part, drawing(image('/Interpolate true'))),
  },
  4: {
    pass: (part) => pdfaFile(part, drawing(image())),
    // 16 bits per component: allowed from PDF 1.5 on, not in PDF/A-1
    fail: (part) => pdfaFile(part, drawing(image('/BitsPerComponent 16', '\xff\xff\x00\x00\x00\x00'))),
  },
  5: {
    pass: (part) =>
      pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 1')])),
    fail: (part) =>
      pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 2')])),
  },
};
