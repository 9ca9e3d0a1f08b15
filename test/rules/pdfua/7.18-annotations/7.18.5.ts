import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile, annotatedRoot, LINK } from '../../pdfua-annotations.js';

const BARE_LINK = '/Subtype /Link /Border [0 0 0] /A << /S /URI /URI (https://example.org/) >>';

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: LINK, tag: 'Link' }]),
    fail: () => annotatedFile([{ entries: LINK, tag: 'Annot' }]),
  },
  2: {
    pass: () => annotatedFile([{ entries: LINK, tag: 'Link' }]),
    fail: () =>
      annotatedFile([{ entries: BARE_LINK, tag: 'Link', elementEntries: '/Alt (The example site)' }]),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.5-1 a link in an element of its own type mapped to Link': () =>
    annotatedFile([{ entries: LINK, tag: 'WebLink' }], {
      root: annotatedRoot(1, '/RoleMap << /WebLink /Link >>'),
    }),
  '7.18.5 a hidden link in no element, without /Contents': () =>
    annotatedFile([{ entries: `${BARE_LINK} /F 2`, tag: null }]),
  '7.18.5 a link outside the crop box in no element, without /Contents': () =>
    annotatedFile([{ entries: BARE_LINK, tag: null, rect: '[0 -60 50 -10]' }]),
};
