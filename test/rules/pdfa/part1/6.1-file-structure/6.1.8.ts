import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** Replaces `from` by `to` of the same length, so that no offset moves. */
const swap = (from: string, to: string) => (bytes: Uint8Array) =>
  Buffer.from(Buffer.from(bytes).toString('latin1').replace(from, to), 'latin1');

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { objects: ['(eight)'] }),
    // the object's value on the obj keyword's line
    fail: (part) => pdfaFile(part, { objects: ['(eight)'], finish: swap('8 0 obj\n', '8 0 obj ') }),
  },
};
