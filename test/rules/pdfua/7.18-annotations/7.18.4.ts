import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile, annotatedRoot, widget } from '../../pdfua-annotations.js';

const form = (fields: string) => `/AcroForm << /Fields [${fields}] >>`;
const NAMED = widget('/TU (Your name)');
/** Two check boxes of one field, in one Form element. */
const twoBoxes = (elementEntries?: string, root?: string) =>
  annotatedFile(
    [
      {
        entries: '/Subtype /Widget /F 4 /Parent 14 0 R',
        tag: 'Form',
        ...(elementEntries ? { elementEntries } : {}),
      },
      {
        entries: '/Subtype /Widget /F 4 /Parent 14 0 R',
        tag: 'Form',
        sharesElementOf: 0,
        rect: '[300 600 350 650]',
      },
    ],
    {
      catalog: form('14 0 R'),
      objects: ['<< /FT /Btn /T (choice) /TU (Your choice) /Kids [10 0 R 12 0 R] >>'],
      ...(root ? { root } : {}),
    },
  );

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: NAMED, tag: 'Form' }], { catalog: form('10 0 R') }),
    fail: () => annotatedFile([{ entries: NAMED, tag: 'Annot' }], { catalog: form('10 0 R') }),
  },
  2: {
    pass: () => annotatedFile([{ entries: NAMED, tag: 'Form' }], { catalog: form('10 0 R') }),
    fail: () => twoBoxes(),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.4-1 a widget in an element of its own type mapped to Form': () =>
    annotatedFile([{ entries: NAMED, tag: 'Field' }], {
      catalog: form('10 0 R'),
      root: annotatedRoot(1, '/RoleMap << /Field /Form >>'),
    }),
  '7.18.4-1 a hidden widget in no element': () =>
    annotatedFile([{ entries: '/Subtype /Widget /F 2 /FT /Tx /T (name) /TU (Your name)', tag: null }], {
      catalog: form('10 0 R'),
    }),
  '7.18.4-1 a widget outside the crop box in no element': () =>
    annotatedFile([{ entries: NAMED, tag: null, rect: '[700 0 750 50]' }], { catalog: form('10 0 R') }),
  '7.18.4-2 a Form element with a PrintField /Role attribute holding two widgets': () =>
    twoBoxes('/A << /O /PrintField /Role /cb >>'),
  '7.18.4-2 a Form element whose class gives it a /Role attribute, holding two widgets': () =>
    twoBoxes('/C /Boxes', annotatedRoot(2, '/ClassMap << /Boxes << /O /PrintField /Role /cb >> >>')),
};
