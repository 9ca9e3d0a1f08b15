import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A form drawn plain, and a reference XObject (shared with ISO 19005-2 6.2.9-2). */
export const referencePair: FixturePair = {
  pass: (part) => pdfaFile(part, drawing(form())),
  fail: (part) => pdfaFile(part, drawing(form('/Ref << /F (other.pdf) /Page 0 >>'))),
};

export const fixtures: FixturePairs = {
  1: referencePair,
};
