import type { FixturePairs } from '../../fixtures.js';
import { latin1 } from '../../pdfa-file.js';
import { pdfuaFile, UA_CATALOG } from '../../pdfua-file.js';

/** The file with `from` replaced by `to`, of the same length (the cross-reference stays right). */
const replaced = (from: string, to: string) => (bytes: Uint8Array) => {
  const text = Buffer.from(bytes).toString('latin1');
  if (from.length !== to.length || !text.includes(from)) throw new Error(`cannot replace ${from}`);
  return latin1(text.replace(from, to));
};

export const fixtures: FixturePairs = {
  4: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ uaCatalog: UA_CATALOG.replace('/Marked true', '/Marked true /Suspects true') }),
  },
  8: {
    pass: () => pdfuaFile(),
    // the catalog names no metadata stream: 5-1 breaks too (no identification without metadata)
    fail: () => pdfuaFile({ finish: replaced('/Metadata 5 0 R', '/Metadatx 5 0 R') }),
  },
  9: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ title: null }),
  },
  10: {
    pass: () => pdfuaFile(),
    fail: () =>
      pdfuaFile({ uaCatalog: UA_CATALOG.replace('/DisplayDocTitle true', '/DisplayDocTitle false') }),
  },
  11: {
    pass: () => pdfuaFile(),
    fail: () => pdfuaFile({ uaCatalog: UA_CATALOG.replace(' /StructTreeRoot 6 0 R', '') }),
  },
};

export const allowances: Record<string, () => Uint8Array> = {
  '7.1-4 /Suspects false': () =>
    pdfuaFile({ uaCatalog: UA_CATALOG.replace('/Marked true', '/Marked true /Suspects false') }),
  // dc is the recommended prefix of the Dublin Core namespace, not a required one
  '7.1-9 dc:title written with another prefix': () =>
    pdfuaFile({
      title: null,
      xmpNamespaces: 'xmlns:dce="http://purl.org/dc/elements/1.1/"',
      xmp: '<dce:title><rdf:Alt><rdf:li xml:lang="x-default">Fixture</rdf:li></rdf:Alt></dce:title>',
    }),
  // the published test asks that dc:title be there: whether it identifies the document is a person's to judge
  '7.1-9 an empty dc:title': () =>
    pdfuaFile({
      title: null,
      xmp: '<dc:title><rdf:Alt><rdf:li xml:lang="x-default"></rdf:li></rdf:Alt></dc:title>',
    }),
  '7.1-9 dc:title in a language other than x-default only': () =>
    pdfuaFile({
      title: null,
      xmp: '<dc:title><rdf:Alt><rdf:li xml:lang="en-US">Fixture</rdf:li></rdf:Alt></dc:title>',
    }),
};
