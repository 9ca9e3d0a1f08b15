import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile, annotatedRef, annotatedRoot, LINK, NOTE, widget } from '../../pdfua-annotations.js';

/** A note without /Contents. */
const BARE_NOTE = '/Subtype /Text /F 4';
/** The catalog's interactive form, of the fields listed (`10 0 R`). */
const form = (fields: string) => `/AcroForm << /Fields [${fields}] >>`;

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }]),
    fail: () => annotatedFile([{ entries: NOTE, tag: null }]),
  },
  2: {
    pass: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }]),
    fail: () => annotatedFile([{ entries: BARE_NOTE, tag: 'Annot' }]),
  },
  3: {
    pass: () =>
      annotatedFile([{ entries: widget('/TU (Your name)'), tag: 'Form' }], { catalog: form('10 0 R') }),
    fail: () => annotatedFile([{ entries: widget(), tag: 'Form' }], { catalog: form('10 0 R') }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.1-1 a note held in an element of its own type mapped to Annot': () =>
    annotatedFile([{ entries: NOTE, tag: 'Remark' }], {
      root: annotatedRoot(1, '/RoleMap << /Remark /Annot >>'),
    }),
  '7.18.1-1 a note in its Annot element through /StructParent alone (no object reference)': () =>
    annotatedFile([{ entries: NOTE, tag: 'Annot', via: 'StructParent' }]),
  '7.18.1-1 a hidden note, in no element and without /Contents': () =>
    annotatedFile([{ entries: '/Subtype /Text /F 6', tag: null }]),
  '7.18.1-1 a note outside the media box, in no element and without /Contents': () =>
    annotatedFile([{ entries: BARE_NOTE, tag: null, rect: '[700 800 720 820]' }]),
  '7.18.1-1 a note inside the media box but outside the crop box, in no element': () =>
    annotatedFile([{ entries: BARE_NOTE, tag: null, rect: '[10 700 60 750]' }], {
      page: '/CropBox [0 0 612 600]',
    }),
  '7.18.1-1 a link in a Link element, not Annot': () => annotatedFile([{ entries: LINK, tag: 'Link' }]),
  '7.18.1-1 a widget in a Form element, not Annot': () =>
    annotatedFile([{ entries: widget('/TU (Your name)'), tag: 'Form' }], { catalog: form('10 0 R') }),
  '7.18.1-1 a PrinterMark in no element and without /Contents': () =>
    annotatedFile([{ entries: '/Subtype /PrinterMark /F 4', tag: null }]),
  '7.18.1 the Popup of a tagged note, in no element and without /Contents of its own': () =>
    annotatedFile([
      { entries: `${NOTE} /Popup 12 0 R`, tag: 'Annot' },
      { entries: '/Subtype /Popup /F 4 /Parent 10 0 R /Open false', tag: null, rect: '[300 600 500 700]' },
    ]),
  '7.18.1-2 a note described by the /Alt of its Annot element, without /Contents': () =>
    annotatedFile([{ entries: BARE_NOTE, tag: 'Annot', elementEntries: '/Alt (A note on the square)' }]),
  '7.18.1-2 a note whose /Contents is a UTF-16 string': () =>
    annotatedFile([{ entries: '/Subtype /Text /F 4 /Contents <FEFF004E006F00740065>', tag: 'Annot' }]),
  '7.18.1-2 a hidden note in its Annot element without /Contents': () =>
    annotatedFile([{ entries: '/Subtype /Text /F 2', tag: 'Annot' }]),
  '7.18.1-2 a note outside the crop box in its Annot element without /Contents': () =>
    annotatedFile([{ entries: BARE_NOTE, tag: 'Annot', rect: '[-100 -100 -50 -50]' }]),
  '7.18.1-3 a widget whose parent field has the /TU': () =>
    annotatedFile([{ entries: `/Subtype /Widget /F 4 /Parent ${annotatedRef(1, 0)}`, tag: 'Form' }], {
      catalog: form(annotatedRef(1, 0)),
      objects: ['<< /FT /Tx /T (name) /TU (Your name) /Kids [10 0 R] >>'],
    }),
  '7.18.1-3 a widget described by the /Alt of its Form element, its field without /TU': () =>
    annotatedFile([{ entries: widget(), tag: 'Form', elementEntries: '/Alt (Your name)' }], {
      catalog: form('10 0 R'),
    }),
  '7.18.1-3 a widget described by its /Contents, its field without /TU': () =>
    annotatedFile([{ entries: widget('/Contents (Your name)'), tag: 'Form' }], { catalog: form('10 0 R') }),
  '7.18.1-3 two radio buttons, each described by the /Alt of its Form element': () =>
    annotatedFile(
      [
        {
          entries: `/Subtype /Widget /F 4 /Parent ${annotatedRef(2, 0)}`,
          tag: 'Form',
          elementEntries: '/Alt (Yes)',
        },
        {
          entries: `/Subtype /Widget /F 4 /Parent ${annotatedRef(2, 0)}`,
          rect: '[300 600 350 650]',
          tag: 'Form',
          elementEntries: '/Alt (No)',
        },
      ],
      {
        catalog: form(annotatedRef(2, 0)),
        objects: ['<< /FT /Btn /Ff 49152 /T (answer) /Kids [10 0 R 12 0 R] >>'],
      },
    ),
  '7.18.1-3 a hidden widget without any description': () =>
    annotatedFile([{ entries: '/Subtype /Widget /F 2 /FT /Tx /T (name)', tag: null }], {
      catalog: form('10 0 R'),
    }),
  '7.18.1-3 a widget outside the crop box without any description': () =>
    annotatedFile([{ entries: widget(), tag: null, rect: '[0 900 50 950]' }], { catalog: form('10 0 R') }),
};
