import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile, uaRef } from '../../pdfua-file.js';

const KEY = '<00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF>';

/**
 * A file whose trailer names a standard encryption dictionary with `permissions` (its strings and streams
 * are left as written: the reader does not decrypt, and the rule reads the dictionary only).
 */
const encrypted = (permissions: string) =>
  pdfuaFile({
    trailer: `/Encrypt ${uaRef(0)}`,
    objects: [`<< /Filter /Standard /V 2 /R 3 /Length 128 /O ${KEY} /U ${KEY}${permissions} >>`],
  });

export const fixtures: FixturePairs = {
  1: {
    // every permission granted (bits 1 and 2 are 0, ISO 32000-1 Table 22)
    pass: () => encrypted(' /P -4'),
    // printing and copying denied, and with them extraction for accessibility (bit 10)
    fail: () => encrypted(' /P -3904'),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // bit 10 alone is what the clause asks: other permissions may be denied
  '7.16-1 copying denied, extraction for accessibility granted': () => encrypted(' /P -3392'),
  '7.16-1 /P written as an unsigned number': () => encrypted(' /P 4294967292'),
  '7.16-1 not encrypted at all': () => pdfuaFile(),
};
