import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    fail: (part) =>
      pdfaFile(part, {
        catalog: '/OCProperties << /OCGs [8 0 R] /D << /Name (Default) /Order [8 0 R] >> >>',
        objects: ['<< /Type /OCG /Name (Layer) >>'],
      }),
  },
};
