import type { FixturePairs } from '../../../fixtures.js';
import { pkcs7, signedFile } from '../../../interactive-fixtures.js';

const good = pkcs7({ certificates: [7], signers: [7] });

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => signedFile(part, good),
    // the byte range stops ten bytes before the end of the file
    fail: (part) => signedFile(part, good, { shortBy: 10 }),
  },
  2: {
    pass: (part) => signedFile(part, good),
    // the certificates there are another's
    fail: (part) => signedFile(part, pkcs7({ certificates: [8], signers: [7] })),
  },
  3: {
    pass: (part) => signedFile(part, good),
    fail: (part) => signedFile(part, pkcs7({ certificates: [7, 8], signers: [7, 8] })),
  },
};
