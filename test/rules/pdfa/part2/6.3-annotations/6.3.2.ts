import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation } from '../../../interactive-fixtures.js';

export const fixtures: FixturePairs = {
  1: {
    // a Popup needs no flags
    pass: (part) => withAnnotation(part, '/Type /Annot /Subtype /Popup /Rect [10 10 110 110]'),
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace(' /F 4', '')),
  },
  2: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    // Print and ToggleNoView
    fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/F 4', '/F 260')),
  },
};
