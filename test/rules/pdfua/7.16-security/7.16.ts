import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile } from '../../pdfua-file.js';

/**
 * The minimal PDF/UA file encrypted as a writer encrypts it (RC4, the empty user password), with `permissions`
 * as /P: a reader opens it without a password, and its strings and streams read once decrypted.
 */
const encrypted = (permissions: number) => pdfuaFile({ encrypt: { permissions } });

export const fixtures: FixturePairs = {
  1: {
    // every permission granted (bits 1 and 2 are 0, ISO 32000-1 Table 22)
    pass: () => encrypted(-4),
    // printing and copying denied, and with them extraction for accessibility (bit 10)
    fail: () => encrypted(-3904),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // bit 10 alone is what the clause asks: other permissions may be denied
  '7.16-1 copying denied, extraction for accessibility granted': () => encrypted(-3392),
  '7.16-1 /P written as an unsigned number': () => encrypted(4294967292),
  '7.16-1 not encrypted at all': () => pdfuaFile(),
};
