import type { FixturePairs } from '../../../fixtures.js';
import { fontPage } from '../../../font-programs.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** Shared with ISO 19005-2 6.2.11.4.1-1. */
export const embeddingPair = {
  pass: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({})),
  // the same font without its program
  fail: (part: 1 | 2 | 3) => pdfaFile(part, fontPage({ program: undefined })),
};

export const fixtures: FixturePairs = { 1: embeddingPair };
