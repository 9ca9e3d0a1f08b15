import type { FixturePairs } from '../../../fixtures.js';
import { FILE_SPEC, withEmbeddedFile } from '../../../interactive-fixtures.js';

const DATA = '<?xml version="1.0"?><invoice total="12.50"/>';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => withEmbeddedFile(part, DATA, { subtype: 'application#2Fxml' }),
    fail: (part) => withEmbeddedFile(part, DATA, { subtype: null }),
  },
  3: {
    pass: (part) => withEmbeddedFile(part, DATA, { subtype: 'application#2Fxml' }),
    fail: (part) =>
      withEmbeddedFile(part, DATA, {
        subtype: 'application#2Fxml',
        spec: FILE_SPEC.replace(' /AFRelationship /Source', ''),
      }),
  },
  4: {
    pass: (part) => withEmbeddedFile(part, DATA, { subtype: 'application#2Fxml' }),
    fail: (part) => withEmbeddedFile(part, DATA, { subtype: 'application#2Fxml', noAF: true }),
  },
};
