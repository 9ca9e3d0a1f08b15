import type { FixturePairs } from '../../../fixtures.js';
import { drawing, form } from '../../../graphics-fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';

const postscript = () => stream('', '0 0 moveto');

export const fixtures: FixturePairs = {
  1: {
    // a form with a PostScript fragment that no content paints is never rendered: it keeps the rule
    pass: (part) =>
      pdfaFile(part, {
        ...drawing(form(), [form(`/PS ${ref(2)}`), postscript()]),
        resources: `/XObject << /X0 ${ref(0)} /Unused ${ref(1)} >>`,
      }),
    fail: (part) => pdfaFile(part, drawing(form(`/PS ${ref(1)}`), [postscript()])),
  },
};
