import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { packetWith } from './xmp-fixtures.js';

/** The header of the default packet with an attribute added (it keeps begin and id). */
export const headerWith = (part: 1 | 2 | 3, attribute: string) =>
  pdfaFile(part, {
    xmpPacket: packetWith(
      part,
      'id="W5M0MpCehiHzreSzNTczkc9d"',
      `id="W5M0MpCehiHzreSzNTczkc9d" ${attribute}`,
    ),
  });

export const fixtures: FixturePairs = {
  1: { pass: (part) => pdfaFile(part), fail: (part) => headerWith(part, 'bytes="1024"') },
  2: { pass: (part) => pdfaFile(part), fail: (part) => headerWith(part, 'encoding="UTF-8"') },
};
