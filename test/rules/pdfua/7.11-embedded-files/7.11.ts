import type { FixturePairs } from '../../fixtures.js';
import { stream } from '../../pdfa-file.js';
import { pdfuaFile, uaRef } from '../../pdfua-file.js';

/** A file with one embedded file in the EmbeddedFiles tree, its specification's entries `entries`. */
const withEmbeddedFile = (entries: string, catalog = '', objects: string[] = []) =>
  pdfuaFile({
    catalog: `/Names << /EmbeddedFiles << /Names [(notes.txt) ${uaRef(0)}] >> >>${catalog ? ` ${catalog}` : ''}`,
    objects: [
      `<< /Type /Filespec ${entries} /EF << /F ${uaRef(1)} >> >>`,
      stream('/Type /EmbeddedFile /Subtype /text#2Fplain', 'Some notes.\n'),
      ...objects,
    ],
  });

export const fixtures: FixturePairs = {
  1: {
    pass: () => withEmbeddedFile('/F (notes.txt) /UF (notes.txt)'),
    fail: () => withEmbeddedFile('/F (notes.txt)'),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // only the specification of an embedded file (one with /EF) must carry both names
  '7.11-1 a file specification of an external file, with /F alone': () =>
    withEmbeddedFile('/F (notes.txt) /UF (notes.txt)', `/AF [${uaRef(2)}]`, [
      '<< /Type /Filespec /F (other.pdf) >>',
    ]),
};
