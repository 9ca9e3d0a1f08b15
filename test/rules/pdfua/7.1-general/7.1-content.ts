import type { FixturePairs } from '../../fixtures.js';
import { stream } from '../../pdfa-file.js';
import { ARTIFACT, FIGURE, pdfuaFile } from '../../pdfua-file.js';

/** A square painted outside any marked content. */
const UNMARKED = '0 1 0 rg\n200 200 50 50 re\nf\n';
/** The Figure's marked content 0, with `inside` before its square. */
const figureWith = (inside: string) =>
  `/Figure << /MCID 0 >> BDC\n${inside}0 0 1 rg\n10 10 100 100 re\nf\nEMC\n`;
/** A form XObject (object 10) that paints a square, with `entries` and `data` of its own. */
const form = (entries = '', data = '0 1 0 rg\n0 0 50 50 re\nf\n') =>
  stream(`/Type /XObject /Subtype /Form /BBox [0 0 100 100] ${entries}`.trim(), data);
const FORM_RESOURCES = '/XObject << /Fm1 10 0 R >>';

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfuaFile({ content: `${ARTIFACT}${FIGURE}` }),
    fail: () => pdfuaFile({ content: figureWith(ARTIFACT) }),
  },
  2: {
    pass: () => pdfuaFile({ content: `${ARTIFACT}${FIGURE}` }),
    fail: () => pdfuaFile({ content: `/Artifact BMC\n${FIGURE}EMC\n` }),
  },
  3: {
    pass: () => pdfuaFile({ content: `${FIGURE}${ARTIFACT}` }),
    fail: () => pdfuaFile({ content: `${FIGURE}${UNMARKED}` }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // a form the Figure holds itself (an object reference), drawn outside any sequence: a frame in it marked
  // as an artifact is not an artifact inside tagged content (tagged content is a sequence an MCID tags)
  '7.1-1 an artifact inside a form that a Figure holds by an object reference': () =>
    pdfuaFile({
      resources: '/XObject << /Fm0 10 0 R >>',
      content: '/Fm0 Do\n',
      figure:
        '<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /K << /Type /OBJR /Obj 10 0 R >> /Alt (A framed square) >>',
      parentTree: '<< /Nums [0 [] 1 8 0 R] >>',
      root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 2 >>',
      objects: [
        stream(
          '/Type /XObject /Subtype /Form /BBox [0 0 612 792] /StructParent 1',
          '/Artifact BMC 0.5 g 5 5 110 110 re f EMC\n0 0 1 rg 10 10 100 100 re f\n',
        ),
      ],
    }),
  '7.1-3 a form XObject drawn inside tagged content, its own content unmarked': () =>
    pdfuaFile({
      resources: FORM_RESOURCES,
      content: '/Figure << /MCID 0 >> BDC\n/Fm1 Do\nEMC\n',
      objects: [form()],
    }),
  '7.1-3 a form XObject drawn inside an Artifact sequence': () =>
    pdfuaFile({
      resources: FORM_RESOURCES,
      content: `${FIGURE}/Artifact BMC\n/Fm1 Do\nEMC\n`,
      objects: [form()],
    }),
  // the element's marked-content reference names no page: only the parent tree finds its holder
  '7.1-3 a form XObject drawn outside marked content whose own content the parent tree holds (its /StructParents)':
    () =>
      pdfuaFile({
        resources: FORM_RESOURCES,
        content: `${FIGURE}/Fm1 Do\n`,
        root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 2 >>',
        document: '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R 11 0 R] >>',
        parentTree: '<< /Nums [0 [8 0 R] 1 [null null null 11 0 R]] >>',
        objects: [
          form('/StructParents 1', '/Figure << /MCID 3 >> BDC\n0 1 0 rg\n0 0 50 50 re\nf\nEMC\n'),
          '<< /Type /StructElem /S /Figure /P 7 0 R /Alt (A green square) /K << /Type /MCR /Stm 10 0 R /MCID 3 >> >>',
        ],
      }),
  '7.1-3 marked content whose element the parent tree names and whose /P leads to the root, though no /K lists it':
    () =>
      pdfuaFile({
        document: '<< /Type /StructElem /S /Document /P 6 0 R /K [11 0 R] >>',
        objects: ['<< /Type /StructElem /S /P /P 7 0 R >>'],
      }),
  '7.1-1 an Artifact sequence with an MCID that no element holds': () =>
    pdfuaFile({ content: `/Artifact << /MCID 5 >> BDC\n0.5 g\n10 780 592 1 re\nf\nEMC\n${FIGURE}` }),
  '7.1-3 a form XObject held whole by a Figure (an object reference and its /StructParent)': () =>
    pdfuaFile({
      resources: FORM_RESOURCES,
      content: `${FIGURE}/Fm1 Do\n`,
      root: '<< /Type /StructTreeRoot /K 7 0 R /ParentTree 9 0 R /ParentTreeNextKey 2 >>',
      document: '<< /Type /StructElem /S /Document /P 6 0 R /K [8 0 R 11 0 R] >>',
      parentTree: '<< /Nums [0 [8 0 R] 1 11 0 R] >>',
      objects: [
        form('/StructParent 1'),
        '<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /Alt (A green square) /K << /Type /OBJR /Pg 3 0 R /Obj 10 0 R >> >>',
      ],
    }),
  '7.1-3 marked content held through a marked-content reference (MCR) rather than an integer': () =>
    pdfuaFile({
      figure:
        '<< /Type /StructElem /S /Figure /P 7 0 R /Pg 3 0 R /K << /Type /MCR /Pg 3 0 R /MCID 0 >> /Alt (A blue square) >>',
    }),
  '7.1-3 marked content held by its element but missing from the parent tree': () =>
    pdfuaFile({ parentTree: '<< /Nums [] >>' }),
  "7.1-3 a property list named in the page's /Properties resources": () =>
    pdfuaFile({
      resources: '/Properties << /MC0 << /MCID 0 >> >>',
      content: '/Figure /MC0 BDC\n0 0 1 rg\n10 10 100 100 re\nf\nEMC\n',
    }),
  '7.1-3 a clipping path ended by n (paints nothing) outside marked content': () =>
    pdfuaFile({ content: `q\n0 0 300 300 re\nW\nn\n${FIGURE}Q\n` }),
  '7.1-3 an untagged sequence nested in tagged content': () =>
    pdfuaFile({ content: figureWith('/Span BMC\n1 0 0 rg\n20 20 5 5 re\nf\nEMC\n') }),
  '7.1-1 an Artifact sequence next to tagged content, inside an untagged sequence': () =>
    pdfuaFile({ content: `/Layer BMC\n${ARTIFACT}EMC\n${FIGURE}` }),
  '7.1-3 a sequence left open by a form XObject ends with it': () =>
    pdfuaFile({
      resources: FORM_RESOURCES,
      content: `/Artifact BMC\n/Fm1 Do\nEMC\n${FIGURE}`,
      objects: [form('', '/Artifact BMC\n0 1 0 rg\n0 0 50 50 re\nf\n')],
    }),
};
