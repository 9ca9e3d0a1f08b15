import type { FixturePairs } from '../../fixtures.js';
import { rootWithRoleMap } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

/** The default Figure (marked content 0 of the page) with `entries` instead of its /Alt. */
const figure = (entries: string, s = 'Figure') =>
  `<< /Type /StructElem /S /${s} /P 7 0 R /Pg 3 0 R /K 0 ${entries} >>`;

export const fixtures: FixturePairs = {
  1: { pass: () => pdfuaFile(), fail: () => pdfuaFile({ figure: figure('') }) },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.3-1 a Figure with replacement text (/ActualText) and no /Alt': () =>
    pdfuaFile({ figure: figure('/ActualText (WARNING)') }),
  '7.3-1 a Figure with an empty /ActualText (it stands for no text)': () =>
    pdfuaFile({ figure: figure('/ActualText ()') }),
  '7.3-1 a Figure with an empty /Alt and an /ActualText': () =>
    pdfuaFile({ figure: figure('/Alt () /ActualText (WARNING)') }),
  '7.3-1 a Figure whose /Alt is a UTF-16 text string': () =>
    pdfuaFile({ figure: figure('/Alt <FEFF0041002000630061007400>') }),
  '7.3-1 a Figure whose /Alt is an indirect object': () =>
    pdfuaFile({ figure: figure('/Alt 10 0 R'), objects: ['(A blue square)'] }),
  '7.3-1 a type of its own mapped to Figure, with /Alt': () =>
    pdfuaFile({ figure: figure('/Alt (A chart)', 'Chart'), root: rootWithRoleMap('/Chart /Figure') }),
};
