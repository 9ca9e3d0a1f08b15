import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';

/** A signature dictionary (object 8) with one signature reference of `reference`'s entries. */
const signature = (reference: string) =>
  `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Reference [<< /Type /SigRef ${reference} >>] >>`;
const DOC_MDP = '/TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P 2 /V /1.2 >>';

export const fixtures: FixturePairs = {
  1: {
    pass: (part) => pdfaFile(part, { catalog: '/Perms << /DocMDP 8 0 R >>', objects: [signature(DOC_MDP)] }),
    fail: (part) =>
      pdfaFile(part, { catalog: '/Perms << /DocMDP 8 0 R /UR 8 0 R >>', objects: [signature(DOC_MDP)] }),
  },
  2: {
    pass: (part) => pdfaFile(part, { catalog: '/Perms << /DocMDP 8 0 R >>', objects: [signature(DOC_MDP)] }),
    fail: (part) =>
      pdfaFile(part, {
        catalog: '/Perms << /DocMDP 8 0 R >>',
        objects: [signature(`${DOC_MDP} /DigestMethod /MD5 /DigestValue <00112233>`)],
      }),
  },
};
