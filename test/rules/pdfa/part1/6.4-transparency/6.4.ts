import type { FixturePairs } from '../../../fixtures.js';
import { drawing, form, graphicsState, grayImage, image } from '../../../graphics-fixtures.js';
import { pdfaFile, ref } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/SMask /None')),
    fail: (part) =>
      pdfaFile(part, graphicsState(`/SMask << /Type /Mask /S /Luminosity /G ${ref(0)} >>`, [form()])),
  },
  2: {
    pass: (part) => pdfaFile(part, drawing(image())),
    fail: (part) => pdfaFile(part, drawing(image(`/SMask ${ref(1)}`), [grayImage()])),
  },
  3: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) => pdfaFile(part, drawing(form('/Group << /S /Transparency /CS /DeviceRGB >>'))),
  },
  4: {
    pass: (part) => pdfaFile(part, graphicsState('/BM /Normal')),
    // an array, even of Normal alone, is not the value Normal (the published test reads BM as a name)
    fail: (part) => pdfaFile(part, graphicsState('/BM [/Normal]')),
  },
  5: {
    // a writer's float for 1
    pass: (part) => pdfaFile(part, graphicsState('/CA 1.0000001')),
    fail: (part) => pdfaFile(part, graphicsState('/CA 0.5')),
  },
  6: {
    // a writer's float for 1; a soft mask written null is none (ISO 32000-1, 7.3.7)
    pass: (part) => pdfaFile(part, graphicsState('/ca 0.9999999 /SMask null')),
    // a value that is not a number is no opacity of 1
    fail: (part) => pdfaFile(part, graphicsState('/ca /Half')),
  },
};
