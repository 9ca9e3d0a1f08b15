import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, xmpPacket } from '../../../pdfa-file.js';
import { noCatalogMetadata } from '../../part1/6.7-metadata/6.7.2.js';
import { headerWith } from '../../part1/6.7-metadata/6.7.5.js';
import { notWellFormed } from '../../part1/6.7-metadata/6.7.9.js';

/** The default packet in UTF-16BE, with its byte order mark. */
const utf16 = (text: string): Uint8Array => {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xfe, 0xff]);
  for (let i = 0; i < text.length; i++) {
    out[2 + 2 * i] = text.charCodeAt(i) >> 8;
    out[3 + 2 * i] = text.charCodeAt(i) & 0xff;
  }
  return out;
};

export const fixtures: FixturePairs = {
  1: { pass: (part) => pdfaFile(part), fail: noCatalogMetadata },
  2: { pass: (part) => pdfaFile(part), fail: (part) => headerWith(part, 'bytes="1024"') },
  3: { pass: (part) => pdfaFile(part), fail: (part) => headerWith(part, 'encoding="UTF-8"') },
  4: { pass: (part) => pdfaFile(part), fail: notWellFormed },
  5: {
    pass: (part) => pdfaFile(part),
    fail: (part) => pdfaFile(part, { xmpPacket: utf16(xmpPacket(part).replace('\uFEFF', '')) }),
  },
};
