import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile, NOTE } from '../../pdfua-annotations.js';

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: NOTE, tag: 'Annot' }]),
    fail: () => annotatedFile([{ entries: '/Subtype /TrapNet /F 4 /Contents (Trapping)', tag: 'Annot' }]),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.2-1 a hidden TrapNet annotation': () =>
    annotatedFile([{ entries: '/Subtype /TrapNet /F 6', tag: null }]),
  '7.18.2-1 a TrapNet annotation outside the crop box': () =>
    annotatedFile([{ entries: '/Subtype /TrapNet /F 4', tag: null, rect: '[620 0 700 50]' }]),
};
