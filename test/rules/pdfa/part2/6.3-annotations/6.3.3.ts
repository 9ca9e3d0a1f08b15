import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation, withField } from '../../../interactive-fixtures.js';

const BUTTON = '/Type /Annot /Subtype /Widget /FT /Btn /T (box) /V /Off /AS /Off /Rect [10 10 30 30] /F 4';

export const fixtures: FixturePairs = {
  1: {
    // an annotation of zero size needs no appearance
    pass: (part) =>
      withAnnotation(part, '/Type /Annot /Subtype /Text /Rect [10 10 10 10] /F 4 /Contents (note)'),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace(' /AP << /N 9 0 R >>', '')),
  },
  2: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N 9 0 R /R 9 0 R')),
  },
  3: {
    pass: (part) => withField(part, `${BUTTON} /AP << /N << /Off 9 0 R /On 9 0 R >> >>`),
    fail: (part) => withField(part, `${BUTTON} /AP << /N 9 0 R >>`),
  },
  4: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N << /On 9 0 R >>')),
  },
};
