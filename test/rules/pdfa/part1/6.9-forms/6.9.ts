import type { FixturePairs } from '../../../fixtures.js';
import { TEXT_FIELD, withField } from '../../../interactive-fixtures.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withField(part, TEXT_FIELD, '/NeedAppearances false'),
    // not a boolean: a reader cannot take it for false
    fail: (part) => withField(part, TEXT_FIELD, '/NeedAppearances /true'),
  },
  2: {
    pass: (part) => withField(part, TEXT_FIELD),
    fail: (part) => withField(part, TEXT_FIELD.replace(' /AP << /N 9 0 R >>', '')),
  },
};
