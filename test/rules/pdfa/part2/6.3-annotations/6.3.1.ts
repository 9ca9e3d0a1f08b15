import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation } from '../../../interactive-fixtures.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/Square', '/Screen')),
  },
};
