import type { FixturePairs } from '../../fixtures.js';
import { withElements } from '../../pdfua-elements.js';
import { pdfuaFile } from '../../pdfua-file.js';

const formula = (entries: string) => pdfuaFile(withElements([{ s: 'Formula', entries }]));

export const fixtures: FixturePairs = {
  1: { pass: () => formula('/Alt (x squared plus one)'), fail: () => formula('') },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.7-1 a Formula with replacement text (/ActualText) and no /Alt': () =>
    formula('/ActualText (x\\262 + 1)'),
  '7.7-1 a Formula with an empty /Alt and an /ActualText': () => formula('/Alt () /ActualText (x + 1)'),
};
