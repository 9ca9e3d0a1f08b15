import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, xmpPacket } from '../../../pdfa-file.js';
import { replacingBytes } from './xmp-fixtures.js';

/** The part's file whose catalog has no /Metadata (the key renamed, so that offsets hold). */
export const noCatalogMetadata = (part: 1 | 2 | 3) =>
  replacingBytes(pdfaFile(part), '/Metadata 5 0 R', '/Metadatx 5 0 R');

const hex = (text: string) => `${Buffer.from(text, 'utf8').toString('hex')}>`;

export const fixtures: FixturePairs = {
  1: { pass: (part) => pdfaFile(part), fail: noCatalogMetadata },
  2: {
    pass: (part) => pdfaFile(part),
    // the same packet, hex-encoded behind /ASCIIHexDecode
    fail: (part) =>
      pdfaFile(part, { metadataEntries: '/Filter /ASCIIHexDecode', xmpPacket: hex(xmpPacket(part)) }),
  },
};
