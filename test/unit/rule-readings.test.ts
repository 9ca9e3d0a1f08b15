import { describe, expect, it } from 'vitest';
import { PDFA_RULES } from '../../src/rules/pdfa/index.js';
import { judgeBytes } from '../rules/fixtures.js';
import { pdfaFile } from '../rules/pdfa-file.js';
import { xmlns } from '../rules/pdfa/part1/6.7-metadata/xmp-fixtures.js';

/**
 * Readings of a rule that its one fixture pair cannot show as well: each case a file that keeps or breaks one
 * rule in a way the pair does not.
 */
const part1 = PDFA_RULES.filter((r) => r.specifications.includes('ISO 19005-1'));
const failed = (bytes: Uint8Array) => judgeBytes(bytes, part1).map((f) => `${f.clause}-${f.test}`);
const withInfo = (info: string, xmp: string, objects?: string[]) =>
  pdfaFile(1, { info, xmp, xmpNamespaces: xmlns('dc', 'xmp', 'pdf'), ...(objects ? { objects } : {}) });

describe('ISO 19005-1 6.7.3: the information dictionary agrees with the XMP metadata', () => {
  it('a ModDate not written as a PDF date is equivalent to no XMP date, even to the same text', () => {
    const xmp = '<xmp:ModifyDate>2015-03-10T17:19:21+01:00</xmp:ModifyDate>';
    expect(failed(withInfo('/ModDate (2015-03-10T17:19:21+01:00)', xmp))).toContain('6.7.3-8');
    expect(failed(withInfo("/ModDate (D:20150310171921+01'00')", xmp))).toEqual([]);
  });

  it('a Title that is not a text string (here a reference to a number) disagrees with dc:title', () => {
    const xmp = '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Test title</rdf:li></rdf:Alt></dc:title>';
    expect(failed(withInfo('/Title 8 0 R', xmp, ['42']))).toContain('6.7.3-2');
    expect(failed(withInfo('/Title null', xmp))).toEqual([]);
  });
});
