import type { FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation } from '../../../interactive-fixtures.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
    // Polygon is a type of PDF 1.5, not of PDF Reference 1.4
    fail: (part) =>
      withAnnotation(
        part,
        '/Type /Annot /Subtype /Polygon /Vertices [10 10 50 50 90 10] /Rect [10 10 110 110] /F 4 /AP << /N 9 0 R >>',
      ),
  },
};
