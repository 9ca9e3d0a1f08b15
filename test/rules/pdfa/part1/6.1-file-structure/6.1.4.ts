import type { FixturePairs } from '../../../fixtures.js';
import { appendUpdate, pdfaFile } from '../../../pdfa-file.js';

const ID = '<0123456789ABCDEF0123456789ABCDEF>';
/** Replaces `from` by `to` of the same length, so that no offset moves. */
const swap = (from: string, to: string) => (bytes: Uint8Array) =>
  Buffer.from(Buffer.from(bytes).toString('latin1').replace(from, to), 'latin1');

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part),
    // a tab between the first object number and the count
    fail: (part) => pdfaFile(part, { finish: swap('xref\n0 ', 'xref\n0\t') }),
  },
  2: {
    pass: (part) => pdfaFile(part),
    // CR LF twice after the keyword (the header line's LF moved up)
    fail: (part) => pdfaFile(part, { finish: swap('xref\n0', 'xref\n\n0') }),
  },
  3: {
    pass: (part) => pdfaFile(part),
    // an update whose cross-reference is a stream
    fail: (part) =>
      appendUpdate(pdfaFile(part), {
        objects: { 8: '<< /Producer (update) >>' },
        trailer: `/Size 10 /Root 1 0 R /ID [${ID} ${ID}]`,
        xrefStream: 9,
      }),
  },
};
