import type { FixturePairs } from '../../fixtures.js';
import { el, withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

const file = (...elements: Parameters<typeof withElements>[0]) => pdfuaFile(withElements(elements));
const item = () => el('LI', el('Lbl'), el('LBody'));
const list = (...kids: ReturnType<typeof el>[]) => file(el('L', ...kids));
const contents = (...kids: ReturnType<typeof el>[]) => file(el('TOC', ...kids));

export const fixtures: FixturePairs = {
  17: { pass: () => list(item(), item()), fail: () => file(item()) },
  18: { pass: () => list(item()), fail: () => file(el('LBody')) },
  19: { pass: () => list(el('Caption'), item(), el('L', item())), fail: () => list(item(), el('P')) },
  20: { pass: () => list(item()), fail: () => list(el('LI', el('Lbl'), el('P'))) },
  26: { pass: () => contents(el('TOCI')), fail: () => file(el('TOCI')) },
  27: {
    pass: () => contents(el('Caption'), el('TOCI'), el('TOC', el('TOCI'))),
    fail: () => contents(el('TOCI'), el('P')),
  },
  28: { pass: () => contents(el('Caption'), el('TOCI')), fail: () => contents(el('TOCI'), el('Caption')) },
  40: { pass: () => list(el('Caption'), item()), fail: () => list(item(), el('Caption')) },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.2-17 list items grouped in a Div and a NonStruct inside their list': () =>
    list(el('Div', item()), el('NonStruct', item())),
  '7.2-18 a list item body in a NonStruct inside its list item': () =>
    list(el('LI', el('Lbl'), el('NonStruct', el('LBody')))),
  '7.2-20 a list item with a body and no label': () => list(el('LI', el('LBody'))),
  '7.2-20 an empty list item': () => list(el('LI')),
  '7.2-19 an empty list': () => list(),
  '7.2-26 contents items grouped in a Part inside their contents': () => contents(el('Part', el('TOCI'))),
  '7.2-40 a Caption first in a Div that is first in the list': () => list(el('Div', el('Caption'), item())),
};
