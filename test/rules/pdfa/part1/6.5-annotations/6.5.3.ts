import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation, withField } from '../../../interactive-fixtures.js';

const BUTTON = '/Type /Annot /Subtype /Widget /FT /Btn /T (box) /V /Off /AS /Off /Rect [10 10 30 30] /F 4';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withAnnotation(part, `${SQUARE_ANNOTATION} /CA 1.0`),
    fail: (part) => withAnnotation(part, `${SQUARE_ANNOTATION} /CA 0.5`),
  },
  2: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    // printed but hidden
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/F 4', '/F 6')),
  },
  3: {
    // the default output intent is sRGB
    pass: (part) => withAnnotation(part, `${SQUARE_ANNOTATION} /C [1 0 0] /IC [0 0 1]`),
    fail: (part) => withAnnotation(part, `${SQUARE_ANNOTATION} /C [1 0 0]`, { noOutputIntent: true }),
  },
  4: {
    // a down appearance written null is none (ISO 32000-1, 7.3.7)
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N 9 0 R /D null')),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N 9 0 R /D 9 0 R')),
  },
  5: {
    pass: (part) => withField(part, `${BUTTON} /AP << /N << /Off 9 0 R /On 9 0 R >> >>`),
    fail: (part) => withField(part, `${BUTTON} /AP << /N 9 0 R >>`),
  },
  6: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N << /On 9 0 R >>')),
  },
};
