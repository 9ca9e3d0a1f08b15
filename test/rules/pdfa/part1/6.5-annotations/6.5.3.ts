import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation } from '../../../interactive-fixtures.js';
import { buttonAppearancePair, streamAppearancePair } from '../../part2/6.3-annotations/6.3.3.js';

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
  5: buttonAppearancePair,
  6: streamAppearancePair,
};
