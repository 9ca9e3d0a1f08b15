import type { FixturePairs } from '../../fixtures.js';
import { el, rootWithRoleMap, withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

/** A paragraph of a type of its own, /Para, mapped (or not) by `roleMap`. */
const para = (roleMap?: string) =>
  pdfuaFile(withElements([el('Para')], roleMap === undefined ? undefined : rootWithRoleMap(roleMap)));

export const fixtures: FixturePairs = {
  5: { pass: () => para('/Para /P'), fail: () => para() },
  // the loop leaves /Para with no standard type: 7.1-5 fails as well
  6: { pass: () => para('/Para /P'), fail: () => para('/Para /Body /Body /Para') },
  7: {
    pass: () => pdfuaFile(withElements([el('P')])),
    fail: () => pdfuaFile(withElements([el('P')], rootWithRoleMap('/P /Span'))),
  },
  12: {
    pass: () => pdfuaFile(withElements([el('P')])),
    fail: () => pdfuaFile(withElements([{ s: 'P', noParent: true }])),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // a structure element's /Type, when written, is /StructElem: a dictionary of another type among the kids
  // is no element, and no rule of elements judges it
  '7.1-12 a kid dictionary of another /Type is no element': () =>
    pdfuaFile({
      document:
        '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R << /Type /Bogus /Note (not an element) >>] >>',
    }),
  '7.1-5 a type mapped indirectly, through another non-standard type': () => para('/Para /Body /Body /P'),
  '7.1-5 a role map entry no element uses (the rules judge elements)': () =>
    pdfuaFile(withElements([el('P')], rootWithRoleMap('/Unused /Nowhere'))),
  '7.1-7 a standard type mapped to itself (it keeps its meaning)': () =>
    pdfuaFile(withElements([el('P')], rootWithRoleMap('/P /P'))),
  '7.1-7 a non-standard type mapped to a standard one that is used as well': () =>
    pdfuaFile(withElements([el('Para'), el('P')], rootWithRoleMap('/Para /P'))),
};
