import type { FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';
import { tr2Pair } from '../../part1/6.2-graphics/6.2.8.js';

const TYPE1 = '/Type /Halftone /HalftoneType 1 /Frequency 60 /Angle 45 /SpotFunction /Round';
const FUNCTION = '<< /FunctionType 2 /Domain [0 1] /C0 [0] /C1 [1] /N 1 >>';

/** The page shows glyph /a of a Type 3 font (object 8) whose procedure (object 9) sets a graphics state of its own. */
const type3Glyph = (entries: string) => ({
  resources: '/Font << /F1 8 0 R >>',
  content: 'BT /F1 12 Tf 10 10 Td (a) Tj ET\n',
  objects: [
    '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] ' +
      '/CharProcs << /a 9 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> ' +
      '/FirstChar 97 /LastChar 97 /Widths [1000] >>',
    stream(
      `/Resources << /ExtGState << /G0 << /Type /ExtGState ${entries} >> >> >>`,
      '1000 0 0 0 1000 1000 d1 /G0 gs 0 0 1000 1000 re f\n',
    ),
  ],
});

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, graphicsState('/LW 1')),
    // in the own resources of a Type 3 glyph the page shows
    fail: (part) => pdfaFile(part, type3Glyph('/TR /Identity')),
  },
  2: tr2Pair,
  3: {
    pass: (part) => pdfaFile(part, graphicsState('/LW 1')),
    fail: (part) => pdfaFile(part, graphicsState('/HTP [0 0]')),
  },
  4: {
    pass: (part) => pdfaFile(part, graphicsState(`/HT << ${TYPE1} >>`)),
    // a type 6 halftone: a threshold array of its own
    fail: (part) =>
      pdfaFile(
        part,
        graphicsState(`/HT ${ref(0)}`, [
          stream('/Type /Halftone /HalftoneType 6 /Width 1 /Height 1', '\x80'),
        ]),
      ),
  },
  5: {
    pass: (part) => pdfaFile(part, graphicsState(`/HT << ${TYPE1} >>`)),
    fail: (part) => pdfaFile(part, graphicsState(`/HT << ${TYPE1} /HalftoneName (Screen) >>`)),
  },
  6: {
    // a type 5 halftone: Default and the primaries without a transfer function, a spot colorant with one
    pass: (part) =>
      pdfaFile(
        part,
        graphicsState(
          `/HT << /Type /Halftone /HalftoneType 5 /Default << ${TYPE1} >> /Cyan << ${TYPE1} >> ` +
            `/Orange << ${TYPE1} /TransferFunction ${FUNCTION} >> >>`,
        ),
      ),
    fail: (part) => pdfaFile(part, graphicsState(`/HT << ${TYPE1} /TransferFunction ${FUNCTION} >>`)),
  },
};
