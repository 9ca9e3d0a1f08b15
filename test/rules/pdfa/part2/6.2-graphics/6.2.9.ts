import type { FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { referencePair } from '../../part1/6.2-graphics/6.2.6.js';
import { postScriptPair } from '../../part1/6.2-graphics/6.2.7.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, drawing(form())),
    fail: (part) =>
      pdfaFile(part, drawing(form('/OPI << /1.3 << /Type /OPI /Version 1.3 /F (hi.tif) >> >>'))),
  },
  2: referencePair,
  3: postScriptPair,
};
