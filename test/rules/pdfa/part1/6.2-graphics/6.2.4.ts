import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { drawing, grayImage, image } from '../../../graphics-fixtures.js';
import { pdfaFile, ref } from '../../../pdfa-file.js';

/** An image drawn plain, and one with /Alternates (shared with ISO 19005-2 6.2.8-1). */
export const alternatesPair: FixturePair = {
  pass: (part) => pdfaFile(part, drawing(image())),
  fail: (part) => pdfaFile(part, drawing(image(`/Alternates [<< /Image ${ref(1)} >>]`), [image()])),
};

/** An image drawn plain, and one with /OPI (shared with ISO 19005-2 6.2.8-2). */
export const opiPair: FixturePair = {
  pass: (part) => pdfaFile(part, drawing(image())),
  fail: (part) => pdfaFile(part, drawing(image('/OPI << /2.0 << /Type /OPI /Version 2.0 /F (hi.tif) >> >>'))),
};

/** An image whose /Mask has 1 bit per component, and one whose has 2 (shared with ISO 19005-2 6.2.8-5). */
export const maskBitsPair: FixturePair = {
  pass: (part) =>
    pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 1')])),
  fail: (part) =>
    pdfaFile(part, drawing(image(`/Mask ${ref(1)}`), [grayImage('/ImageMask true /BitsPerComponent 2')])),
};

export const fixtures: FixturePairs = {
  1: alternatesPair,
  2: opiPair,
  3: {
    pass: (part) => pdfaFile(part, drawing(image('/Interpolate false'))),
    fail: (part) => pdfaFile(part, drawing(image('/Interpolate true'))),
  },
  4: {
    pass: (part) => pdfaFile(part, drawing(image())),
    // 16 bits per component: allowed from PDF 1.5 on, not in PDF/A-1
    fail: (part) => pdfaFile(part, drawing(image('/BitsPerComponent 16', '\xff\xff\x00\x00\x00\x00'))),
  },
  5: maskBitsPair,
};
