import type { FixturePairs } from '../../../fixtures.js';
import { pdfaFile } from '../../../pdfa-file.js';
import { xmlns } from './xmp-fixtures.js';

const alt = (text: string) => `<rdf:Alt><rdf:li xml:lang="x-default">${text}</rdf:li></rdf:Alt>`;
const seq = (...items: string[]) =>
  `<rdf:Seq>${items.map((i) => `<rdf:li>${i}</rdf:li>`).join('')}</rdf:Seq>`;

/** An Info entry and its XMP analogue, agreeing (`pass`) or not (`fail`). */
function pair(info: string, xmpPass: string, xmpFail: string) {
  const namespaces = xmlns('dc', 'xmp', 'pdf');
  return {
    pass: (part: 1 | 2 | 3) => pdfaFile(part, { info, xmp: xmpPass, xmpNamespaces: namespaces }),
    fail: (part: 1 | 2 | 3) => pdfaFile(part, { info, xmp: xmpFail, xmpNamespaces: namespaces }),
  };
}

export const fixtures: FixturePairs = {
  // the same moment, written in another zone, agrees; another day does not
  1: pair(
    "/CreationDate (D:20240101120000+01'00')",
    '<xmp:CreateDate>2024-01-01T11:00:00Z</xmp:CreateDate>',
    '<xmp:CreateDate>2024-01-02T12:00:00+01:00</xmp:CreateDate>',
  ),
  2: pair(
    '/Title (Annual report)',
    `<dc:title>${alt('Annual report')}</dc:title>`,
    `<dc:title>${alt('Annual rep0rt')}</dc:title>`,
  ),
  // dc:creator has two entries
  3: pair(
    '/Author (Ada Lovelace)',
    `<dc:creator>${seq('Ada Lovelace')}</dc:creator>`,
    `<dc:creator>${seq('Ada Lovelace', 'Charles Babbage')}</dc:creator>`,
  ),
  4: pair(
    '/Subject (Figures)',
    `<dc:description>${alt('Figures')}</dc:description>`,
    `<dc:description>${alt('Numbers')}</dc:description>`,
  ),
  5: pair('/Keywords (a, b)', '<pdf:Keywords>a, b</pdf:Keywords>', '<pdf:Keywords>a; b</pdf:Keywords>'),
  6: pair(
    '/Creator (Writer)',
    '<xmp:CreatorTool>Writer</xmp:CreatorTool>',
    '<xmp:CreatorTool>Calc</xmp:CreatorTool>',
  ),
  7: pair(
    '/Producer (Maker 1.0)',
    '<pdf:Producer>Maker 1.0</pdf:Producer>',
    '<pdf:Producer>Maker 2.0</pdf:Producer>',
  ),
  8: pair(
    '/ModDate (D:20240301080000Z)',
    '<xmp:ModifyDate>2024-03-01T08:00:00Z</xmp:ModifyDate>',
    '<xmp:ModifyDate>2024-03-01T08:00:01Z</xmp:ModifyDate>',
  ),
};
