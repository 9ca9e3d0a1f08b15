import type { FixturePairs } from '../../fixtures.js';
import { formXObject } from '../../pdfua-annotations.js';
import { ARTIFACT, FIGURE, pdfuaFile } from '../../pdfua-file.js';

/** The Figure's content in a form XObject (object 10) with /StructParents 1. */
const TAGGED_FORM = '/Figure << /MCID 0 >> BDC\n0 0 1 rg\n0 0 100 100 re\nf\nEMC\n';
const FIGURE_IN_FORM =
  '<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /K << /Type /MCR /MCID 0 /Stm 10 0 R /Pg 3 0 R >> /Alt (A blue square) >>';
const draws = (times: number) =>
  Array.from({ length: times }, (_, i) => `q 1 0 0 1 ${10 + 150 * i} 10 cm /Fm0 Do Q\n`).join('');
const taggedForm = (times: number, entries = '') =>
  pdfuaFile({
    resources: '/XObject << /Fm0 10 0 R >>',
    content: draws(times),
    figure: FIGURE_IN_FORM,
    parentTree: '<< /Nums [0 [] 1 [8 0 R]] >>',
    root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 2 >>',
    objects: [formXObject(`/StructParents 1 ${entries}`, TAGGED_FORM)],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: () => taggedForm(1),
    fail: () => taggedForm(1, '/Ref << /F << /Type /Filespec /F (other.pdf) /UF (other.pdf) >> /Page 0 >>'),
  },
  2: { pass: () => taggedForm(1), fail: () => taggedForm(2) },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.20-2 a form XObject without /StructParents (an artifact) drawn twice': () =>
    pdfuaFile({
      resources: '/XObject << /Fm0 10 0 R >>',
      content: `${FIGURE}/Artifact BMC\n${draws(2)}EMC\n`,
      objects: [formXObject('', ARTIFACT)],
    }),
};
