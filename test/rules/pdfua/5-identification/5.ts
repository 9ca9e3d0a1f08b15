import type { FixturePairs } from '../../fixtures.js';
import { pdfuaFile, uaXmpPacket } from '../../pdfua-file.js';

/** The PDF/UA identification schema bound to a prefix other than pdfuaid. */
const OTHER_PREFIX = 'xmlns:ua="http://www.aiim.org/pdfua/ns/id/"';

export const fixtures: FixturePairs = {
  1: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ noUaIdentification: true }),
  },
  2: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ noUaIdentification: true, xmp: '<pdfuaid:part>2</pdfuaid:part>' }),
  },
  3: {
    pass: () => pdfuaFile(),
    fail: () =>
      pdfuaFile({ noUaIdentification: true, xmpNamespaces: OTHER_PREFIX, xmp: '<ua:part>1</ua:part>' }),
  },
  4: {
    pass: () => pdfuaFile({ xmp: '<pdfuaid:amd>2014</pdfuaid:amd>' }),
    fail: () => pdfuaFile({ xmpNamespaces: OTHER_PREFIX, xmp: '<ua:amd>2014</ua:amd>' }),
  },
  5: {
    pass: () => pdfuaFile({ xmp: '<pdfuaid:corr>1</pdfuaid:corr>' }),
    fail: () => pdfuaFile({ xmpNamespaces: OTHER_PREFIX, xmp: '<ua:corr>1</ua:corr>' }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  // RDF lets a simple property be written as an attribute of its description
  '5-1 pdfuaid:part written as an attribute': () =>
    pdfuaFile({
      xmpPacket: uaXmpPacket({ noUaIdentification: true }).replace(
        'rdf:about=""',
        'rdf:about="" pdfuaid:part="1"',
      ),
    }),
  // the clause asks for the identification schema, not for a PDF/A extension schema describing it
  '5-1 the identification in a description of its own, with no extension schema': () =>
    pdfuaFile({
      noUaIdentification: true,
      xmpPacket: uaXmpPacket({ noUaIdentification: true }).replace(
        '</rdf:RDF>',
        '<rdf:Description rdf:about="" xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/"><pdfuaid:part>1</pdfuaid:part></rdf:Description>\n</rdf:RDF>',
      ),
    }),
};
