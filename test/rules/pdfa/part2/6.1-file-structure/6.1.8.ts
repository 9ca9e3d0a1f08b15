import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A Separation colour space of colorant `name`, as an unused object. */
const separation = (name: string) =>
  `[/Separation /${name} /DeviceRGB << /FunctionType 2 /Domain [0 1] /C0 [1 1 1] /C1 [0 0 1] /N 1 >>]`;

export const fixtures: FixturePairs = {
  1: {
    // Grün, in UTF-8
    pass: (part) => pdfaFile(part, { objects: [separation('Gr#C3#BCn')] }),
    // Grün, in Latin-1
    fail: (part) => pdfaFile(part, { objects: [separation('Gr#FCn')] }),
  },
};
