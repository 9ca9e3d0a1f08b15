import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile, NOTE } from '../../pdfua-annotations.js';
import { pdfuaFile } from '../../pdfua-file.js';

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }]),
    fail: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }], { tabs: '/Tabs /R' }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.3-1 a page without annotations needs no /Tabs': () => pdfuaFile({ page: '/Annots []' }),
};
