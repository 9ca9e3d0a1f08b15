import type { FixturePairs } from '../../../fixtures.js';
import { graphicsState } from '../../../graphics-fixtures.js';
import { fontPage } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

/**
 * No output intent, half-transparent fills, colour in an ICC-based space (the output intent's profile,
 * object 7, which the file keeps): the page's group must name the blending colour space.
 */
const transparentWithoutIntent = (part: 1 | 2 | 3, page?: string) =>
  pdfaFile(part, {
    noOutputIntent: true,
    resources: '/ColorSpace << /CS0 [/ICCBased 7 0 R] >> /ExtGState << /GS0 << /ca 0.5 >> >>',
    content: '/GS0 gs\n/CS0 cs 0 0 1 sc\n10 10 100 100 re\nf\n',
    ...(page ? { page } : {}),
  });

/** The same, but the half-transparent fill paints only invisible text, in an embedded font. */
const invisibleTransparentText = (part: 1 | 2 | 3) => {
  const font = fontPage({});
  return pdfaFile(part, {
    ...font,
    noOutputIntent: true,
    resources: `${font.resources} /ColorSpace << /CS0 [/ICCBased 7 0 R] >> /ExtGState << /GS0 << /ca 0.5 /SMask null /BM null >> >>`,
    content: '/GS0 gs /CS0 cs 0 0 1 sc BT /F1 12 Tf 3 Tr 10 10 Td (AB) Tj ET\n',
  });
};

export const fixtures: FixturePairs = {
  1: {
    // a reader uses the first blend mode of an array that it knows (ISO 32000-1, 11.6.3): the published
    // test judges that one
    pass: (part) => pdfaFile(part, graphicsState('/BM [/Multiply /Dissolve]')),
    fail: (part) => pdfaFile(part, graphicsState('/BM /Dissolve')),
  },
  2: {
    // or one whose only transparent painting is invisible text (Tr 3), which paints nothing (a soft mask and a
    // blend mode written null are none)
    pass: (part) => invisibleTransparentText(part),
    fail: (part) => transparentWithoutIntent(part),
  },
};
