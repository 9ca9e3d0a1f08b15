import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile, stream } from '../../../pdfa-file.js';

/** A form drawn plain, and a PostScript XObject drawn (shared with ISO 19005-2 6.2.9-3). */
export const postScriptPair: FixturePair = {
  pass: (part) => pdfaFile(part, drawing(form())),
  fail: (part) => pdfaFile(part, drawing(stream('/Type /XObject /Subtype /PS', '0 0 moveto'))),
};

export const fixtures: FixturePairs = {
  1: postScriptPair,
};
