import type { FixturePairs } from '../../../fixtures.js';
import { appendUpdate, pdfaFile } from '../../../pdfa-file.js';

const ID_A = '<0123456789ABCDEF0123456789ABCDEF>';
const ID_B = '<FEDCBA9876543210FEDCBA9876543210>';

/**
 * A file read as linearized: its first object (written in the header's place) is a linearization dictionary,
 * listed by an update whose trailer gives `lastId`; the first section keeps the default /ID.
 */
function linearized(part: 1 | 2 | 3, lastId: string): Uint8Array {
  const header = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n';
  const first = '9 0 obj\n<< /Linearized 1 >>\nendobj\n';
  const file = pdfaFile(part, { header: header + first });
  return appendUpdate(file, {
    objects: {},
    trailer: `/Size 10 /Root 1 0 R /ID [${lastId} ${lastId}]`,
    listed: { 9: header.length },
  });
}

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { noId: true }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    fail: (part) =>
      // encrypted as a writer encrypts (RC4, the empty user password), so that a reader opens it
      pdfaFile(part, { encrypt: { permissions: -4 } }),
  },
  3: {
    pass: (part) =>
      pdfaFile(part, {
        finish: (bytes) => Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('\r\n')]),
      }),
    // a comment after the end-of-file marker
    fail: (part) => pdfaFile(part, { finish: (bytes) => Buffer.concat([bytes, Buffer.from('% more\n')]) }),
  },
  4: {
    pass: (part) => linearized(part, ID_A),
    fail: (part) => linearized(part, ID_B),
  },
};
