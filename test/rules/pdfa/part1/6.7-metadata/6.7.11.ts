import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { packetWith } from './xmp-fixtures.js';

const withPacket = (part: 1 | 2 | 3, from: string | RegExp, to: string) =>
  pdfaFile(part, { xmpPacket: packetWith(part, from, to) });

/** An identification property written with another prefix than pdfaid (bound to the same namespace). */
export const otherPrefix = (part: 1 | 2 | 3, name: string) =>
  pdfaFile(part, {
    xmpPacket: packetWith(
      part,
      /(<pdfaid:conformance>B<\/pdfaid:conformance>)/,
      `$1\n<pdfaid:${name}>1</pdfaid:${name}>`,
    )
      .replace(`<pdfaid:${name}>`, `<id:${name}>`)
      .replace(`</pdfaid:${name}>`, `</id:${name}>`)
      .replace('xmlns:pdfaid=', 'xmlns:id="http://www.aiim.org/pdfa/ns/id/" xmlns:pdfaid='),
  });

/** The identification's part or conformance, written with another prefix. */
const renamed = (part: 1 | 2 | 3, name: 'part' | 'conformance') =>
  pdfaFile(part, {
    xmpPacket: packetWith(part, `<pdfaid:${name}>`, `<id:${name}>`)
      .replace(`</pdfaid:${name}>`, `</id:${name}>`)
      .replace('xmlns:pdfaid=', 'xmlns:id="http://www.aiim.org/pdfa/ns/id/" xmlns:pdfaid='),
  });

/** The fixtures of the identification, shared with ISO 19005-2 and -3 6.6.4. */
export const identificationFixtures: FixturePairs = {
  // no pdfaid property at all
  1: {
    pass: (part) => pdfaFile(part),
    fail: (part) =>
      withPacket(part, /<pdfaid:part>\d<\/pdfaid:part>\n<pdfaid:conformance>B<\/pdfaid:conformance>/, ''),
  },
  2: {
    pass: (part) => pdfaFile(part),
    fail: (part) => withPacket(part, /<pdfaid:part>\d</, `<pdfaid:part>${part === 1 ? 2 : 1}<`),
  },
  3: {
    pass: (part) => pdfaFile(part),
    fail: (part) => withPacket(part, '<pdfaid:conformance>B<', '<pdfaid:conformance>b<'),
  },
  4: { pass: (part) => pdfaFile(part), fail: (part) => renamed(part, 'part') },
  5: { pass: (part) => pdfaFile(part), fail: (part) => renamed(part, 'conformance') },
  6: { pass: (part) => pdfaFile(part), fail: (part) => otherPrefix(part, 'amd') },
};

export const fixtures: FixturePairs = identificationFixtures;
