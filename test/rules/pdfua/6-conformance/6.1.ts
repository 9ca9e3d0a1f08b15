import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile } from '../../pdfua-file.js';

const BINARY_COMMENT = '%\xE2\xE3\xCF\xD3\n';

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ header: `%PDF-2.0\n${BINARY_COMMENT}` }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // an EOL marker is CR, LF or CR LF (ISO 32000-1, 7.2.2)
  '6.1-1 header ended by CR LF': () => pdfuaFile({ header: `%PDF-1.7\r\n${BINARY_COMMENT}` }),
  '6.1-1 header ended by CR': () => pdfuaFile({ header: `%PDF-1.4\r${BINARY_COMMENT}` }),
  // the published test reads the version alone: a blank line after the header is not its fault
  '6.1-1 header followed by a blank line': () => pdfuaFile({ header: `%PDF-1.7\n\n${BINARY_COMMENT}` }),
};
