import type { FixturePairs } from '../../fixtures.js';
import { el, rootWithRoleMap, withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

const headings = (...types: string[]) => pdfuaFile(withElements(types.map((type) => el(type))));

export const fixtures: FixturePairs = {
  1: { pass: () => headings('H1', 'H2', 'H3', 'H2'), fail: () => headings('H1', 'H3') },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.4.2-1 going back up several levels at once': () => headings('H1', 'H2', 'H3', 'H4', 'H1', 'H2'),
  '7.4.2-1 a level repeated': () => headings('H1', 'H1', 'H2', 'H2', 'H2'),
  '7.4.2-1 a document with no headings at all': () => pdfuaFile(withElements([el('P')])),
  '7.4.2-1 headings in sections, in document order': () =>
    pdfuaFile(withElements([el('Sect', el('H1'), el('Sect', el('H2'), el('P'))), el('Sect', el('H1'))])),
  '7.4.2-1 headings of types of their own mapped to H1 and H2': () =>
    pdfuaFile(withElements([el('Title'), el('Subtitle')], rootWithRoleMap('/Title /H1 /Subtitle /H2'))),
};
