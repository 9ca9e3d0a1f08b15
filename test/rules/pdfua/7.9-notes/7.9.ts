import type { FixturePairs } from '../../fixtures.js';
import { rootWithRoleMap, withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

const notes = (...entries: string[]) =>
  pdfuaFile(withElements(entries.map((e) => ({ s: 'Note', entries: e }))));

export const fixtures: FixturePairs = {
  1: { pass: () => notes('/ID (note-1)'), fail: () => notes('') },
  2: { pass: () => notes('/ID (note-1)', '/ID (note-2)'), fail: () => notes('/ID (note-1)', '/ID (note-1)') },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.9 a type of its own mapped to Note, with its /ID': () =>
    pdfuaFile(withElements([{ s: 'Footnote', entries: '/ID (fn-1)' }], rootWithRoleMap('/Footnote /Note'))),
  '7.9-2 IDs that differ only in case are different IDs': () => notes('/ID (n1)', '/ID (N1)'),
};
