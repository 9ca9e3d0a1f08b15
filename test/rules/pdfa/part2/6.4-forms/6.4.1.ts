import type { FixturePairs } from '../../../fixtures.js';
import { TEXT_FIELD, withField } from '../../../interactive-fixtures.js';
import { fieldOfWidgetActionsPair } from '../../part1/6.6-actions/6.6.2.js';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withField(part, TEXT_FIELD),
    fail: (part) => withField(part, `${TEXT_FIELD} /A << /S /GoTo /D [3 0 R /Fit] >>`),
  },
  2: fieldOfWidgetActionsPair,
  3: {
    pass: (part) => withField(part, TEXT_FIELD, '/NeedAppearances false'),
    fail: (part) => withField(part, TEXT_FIELD, '/NeedAppearances true'),
  },
};
