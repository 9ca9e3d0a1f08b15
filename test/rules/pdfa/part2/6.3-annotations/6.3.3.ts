import type { FixturePair, FixturePairs } from '../../../fixtures.js';
import { SQUARE_ANNOTATION, withAnnotation, withField } from '../../../interactive-fixtures.js';

const BUTTON = '/Type /Annot /Subtype /Widget /FT /Btn /T (box) /V /Off /AS /Off /Rect [10 10 30 30] /F 4';

/** A button whose normal appearance is a subdictionary of states, and one whose is a stream (ISO 19005-1 6.5.3-5 too). */
export const buttonAppearancePair: FixturePair = {
  pass: (part) => withField(part, `${BUTTON} /AP << /N << /Off 9 0 R /On 9 0 R >> >>`),
  fail: (part) => withField(part, `${BUTTON} /AP << /N 9 0 R >>`),
};

/** An annotation whose normal appearance is a stream, and one whose is a subdictionary (ISO 19005-1 6.5.3-6 too). */
export const streamAppearancePair: FixturePair = {
  pass: (part) => withAnnotation(part, SQUARE_ANNOTATION),
  fail: (part) => withAnnotation(part, SQUARE_ANNOTATION.replace('/N 9 0 R', '/N << /On 9 0 R >>')),
};

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
  3: buttonAppearancePair,
  4: streamAppearancePair,
};
