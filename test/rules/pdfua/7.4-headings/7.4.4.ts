import type { FixturePairs } from '../../fixtures.js';
import { el, withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

const file = (...elements: Parameters<typeof withElements>[0]) => pdfuaFile(withElements(elements));
const section = () => el('Sect', el('H'), el('P'));

export const fixtures: FixturePairs = {
  1: { pass: () => file(section(), section()), fail: () => file(el('Sect', el('H'), el('P'), el('H'))) },
  // a document that uses both kinds breaks 7.4.4-2 (its H) and 7.4.4-3 (its H1) at once
  2: { pass: () => file(section()), fail: () => file(section(), el('H1')) },
  3: { pass: () => file(el('H1'), el('H2')), fail: () => file(el('H1'), section()) },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.4.4-1 nested sections, one H each': () => file(el('Sect', el('H'), el('Sect', el('H'), el('P')))),
  '7.4.4-1 a section with one H and a Div holding another section heading of its own': () =>
    file(el('Sect', el('H'), el('Div', el('H'), el('P')))),
};
