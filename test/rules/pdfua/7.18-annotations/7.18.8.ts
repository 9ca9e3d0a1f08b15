import type { FixturePairs } from '../../fixtures.js';
import { annotatedFile } from '../../pdfua-annotations.js';

const MARK = '/Subtype /PrinterMark /F 4 /Contents (Registration mark)';

export const fixtures: FixturePairs = {
  1: {
    pass: () => annotatedFile([{ entries: MARK, tag: null }]),
    fail: () => annotatedFile([{ entries: MARK, tag: 'Annot' }]),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.18.8-1 a hidden PrinterMark left in the structure tree': () =>
    annotatedFile([{ entries: '/Subtype /PrinterMark /F 2', tag: 'Annot' }]),
  '7.18.8-1 a PrinterMark outside the crop box left in the structure tree': () =>
    annotatedFile([{ entries: MARK, tag: 'Annot', rect: '[0 800 50 850]' }]),
};
