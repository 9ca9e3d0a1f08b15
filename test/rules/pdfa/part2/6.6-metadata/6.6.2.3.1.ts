import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile, ref, stream } from '../../../pdfa-file.js';
import { mistyped, undescribed, welltyped } from '../../part1/6.7-metadata/6.7.9.js';
import { EXTENSION, EXTENSION_NAMESPACES, withXmp, xmlns } from '../../part1/6.7-metadata/xmp-fixtures.js';

/** Properties XMP 2005 predefines and XMP 2004 does not, written as their types ask. */
const of2005 = (part: 1 | 2 | 3) =>
  withXmp(part, '<xmp:Label>Draft</xmp:Label>\n<xmp:Rating>3</xmp:Rating>', 'xmp');

/** A page's own metadata stream holding `fix:kind`, which the catalog's packet describes or (`described` false) not. */
const onPage = (part: 1 | 2 | 3, described: boolean) => {
  const packet = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" ${xmlns('fix')}><fix:kind>round</fix:kind></rdf:Description>
</rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  return pdfaFile(part, {
    ...(described
      ? {
          xmp: EXTENSION,
          xmpNamespaces: EXTENSION_NAMESPACES,
        }
      : {}),
    page: `/Metadata ${ref(0)}`,
    objects: [stream('/Type /Metadata /Subtype /XML', new TextEncoder().encode(packet))],
  });
};

export const fixtures: FixturePairs = {
  // ISO 19005-2: a page's packet may use a property the catalog's packet describes
  1: {
    pass: (part) => (part === 1 ? welltyped(part) : onPage(part, true)),
    fail: (part) => (part === 1 ? undescribed(part) : onPage(part, false)),
  },
  2: { pass: (part) => (part === 1 ? welltyped(part) : of2005(part)), fail: mistyped },
};
