import { describe, expect, it } from 'vitest';
import { firstText, propertyOf, readXmp } from '../../src/pdf/xmp/rdf.js';
import { infoDisagreements } from '../../src/pdf/xmp/info-agreement.js';
import { PDFA_RULES } from '../../src/rules/pdfa/index.js';
import { judgeBytes } from '../rules/fixtures.js';
import { pdfaFile } from '../rules/pdfa-file.js';

const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  xmpDM: 'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
  crs: 'http://ns.adobe.com/camera-raw-settings/1.0/',
  pdfaExtension: 'http://www.aiim.org/pdfa/ns/extension/',
  pdfaSchema: 'http://www.aiim.org/pdfa/ns/schema#',
  pdfaProperty: 'http://www.aiim.org/pdfa/ns/property#',
  pdfaType: 'http://www.aiim.org/pdfa/ns/type#',
  pdfaField: 'http://www.aiim.org/pdfa/ns/field#',
};

/** A packet whose descriptions hold `body`, with every prefix above bound. */
const packet = (body: string, part: 1 | 2 = 2) =>
  `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ${Object.entries(
    NS,
  )
    .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
    .join(
      ' ',
    )}><rdf:Description rdf:about="" pdfaid:part="${part}" pdfaid:conformance="B">${body}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

/**
 * What the published rules of ISO 19005-`part` find in a PDF/A file whose metadata is `body`'s packet: each
 * failing rule once, as `clause-test` and its first example.
 */
const findings = (body: string, part: 1 | 2 = 2) => {
  const specification = part === 1 ? 'ISO 19005-1' : 'ISO 19005-2';
  return judgeBytes(
    pdfaFile(part, { xmpPacket: packet(body, part) }),
    PDFA_RULES.filter((r) => r.specifications.includes(specification)),
  )
    .filter((f) => f.specification === specification)
    .map((f) => ({ rule: `${f.clause}-${f.test}`, message: f.examples[0] ?? '' }));
};

const EXTENSION = (
  properties: string,
  valueTypes = '',
) => `<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
  <pdfaSchema:schema>Example</pdfaSchema:schema><pdfaSchema:namespaceURI>http://example.com/ns/</pdfaSchema:namespaceURI>
  <pdfaSchema:prefix>ex</pdfaSchema:prefix>
  <pdfaSchema:property><rdf:Seq>${properties}</rdf:Seq></pdfaSchema:property>${valueTypes}
</rdf:li></rdf:Bag></pdfaExtension:schemas>`;
const PROPERTY = (name: string, type: string) => `<rdf:li rdf:parseType="Resource">
  <pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>${type}</pdfaProperty:valueType>
  <pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>d</pdfaProperty:description></rdf:li>`;

describe('reading XMP into its data model', () => {
  it('reads simple values, attributes, arrays, Lang Alt and structures in each RDF form', () => {
    const read = readXmp(
      packet(`<dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Title</rdf:li></rdf:Alt></dc:title>
        <dc:creator><rdf:Seq><rdf:li>A</rdf:li><rdf:li>B</rdf:li></rdf:Seq></dc:creator>
        <xmpDM:projectRef rdf:parseType="Resource"><xmpDM:path>file:///a</xmpDM:path></xmpDM:projectRef>
        <xmpDM:videoFrameSize><rdf:Description xmpDM:w="3" xmpDM:h="4"/></xmpDM:videoFrameSize>
        <xmp:BaseURL rdf:resource="http://example.com/"/>`),
    );
    expect(read.wellFormed).toBe(true);
    expect(propertyOf(read, NS.pdfaid, 'part')?.value).toMatchObject({ kind: 'simple', text: '2' });
    expect(firstText(propertyOf(read, NS.dc, 'title')?.value)).toBe('Title');
    expect(propertyOf(read, NS.dc, 'creator')?.value).toMatchObject({ kind: 'array', form: 'Seq' });
    expect(propertyOf(read, NS.xmpDM, 'projectRef')?.value).toMatchObject({ kind: 'struct' });
    expect(propertyOf(read, NS.xmpDM, 'videoFrameSize')?.value).toMatchObject({
      kind: 'struct',
      fields: [{ name: 'w' }, { name: 'h' }],
    });
    expect(propertyOf(read, NS.xmp, 'BaseURL')?.value).toMatchObject({ text: 'http://example.com/' });
  });

  it('says a packet that is not well-formed XML is not, and finds no property in it', () => {
    const broken = readXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description></x:xmpmeta>');
    expect(broken.wellFormed).toBe(false);
    expect(broken.properties).toEqual([]);
  });

  it('knows a property by its namespace, not by its prefix', () => {
    const read = readXmp(
      packet('').replace(
        'xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"',
        'xmlns:pdfaid="http://example.com/id/"',
      ),
    );
    expect(propertyOf(read, NS.pdfaid, 'part')).toBeUndefined();
  });
});

describe('XMP properties against their schemas (6.6.2.3.1, 6.7.2)', () => {
  it('passes properties written in their types', () => {
    expect(
      findings(`<dc:creator><rdf:Seq><rdf:li>A</rdf:li></rdf:Seq></dc:creator>
      <xmp:CreateDate>2016-02-01T13:19:21+01:00</xmp:CreateDate><pdf:Producer>p</pdf:Producer>
      <xmpDM:projectRef rdf:parseType="Resource"><xmpDM:path>file:///a</xmpDM:path><xmpDM:type>movie</xmpDM:type></xmpDM:projectRef>`),
    ).toEqual([]);
  });

  it('fails a value of the wrong shape and a wrong lexical form', () => {
    expect(findings('<xmpDM:projectRef>http://verapdf.org/</xmpDM:projectRef>')).toMatchObject([
      {
        rule: '6.6.2.3.1-2',
        message: expect.stringContaining('xmpDM:projectRef: its value is a simple value, not a ProjectLink'),
      },
    ]);
    expect(findings('<xmp:CreateDate>yesterday</xmp:CreateDate>')[0]?.message).toContain('is not a Date');
    expect(findings('<dc:creator>A</dc:creator>')[0]?.message).toContain('not a Seq array');
    // a closed choice's value is text of the choice's type: veraPDF's value-type rule does not read the choice
    expect(
      findings('<xmpDM:projectRef rdf:parseType="Resource"><xmpDM:type>film</xmpDM:type></xmpDM:projectRef>'),
    ).toEqual([]);
  });

  it('judges PDF/A-1 by XMP 2004: no xmpDM, no pdf:Author', () => {
    expect(findings('<pdf:Author>me</pdf:Author>', 1)[0]).toMatchObject({
      rule: '6.7.9-2',
      message: expect.stringContaining('not a property of the Adobe PDF schema in XMP 2004'),
    });
    expect(findings('<crs:Exposure>1.0</crs:Exposure>', 1)[0]?.message).toContain('neither predefined');
    expect(findings('<crs:Exposure>1.0</crs:Exposure>', 2)).toEqual([]);
  });

  it('takes a property its extension schema describes, in the type it gives', () => {
    const body = (value: string) =>
      `${EXTENSION(PROPERTY('count', 'Integer'))}<ex:count xmlns:ex="http://example.com/ns/">${value}</ex:count>`;
    expect(findings(body('3'))).toEqual([]);
    expect(findings(body('three'))[0]?.message).toContain('is not a Integer');
    expect(findings('<ex:count xmlns:ex="http://example.com/ns/">3</ex:count>')[0]).toMatchObject({
      rule: '6.6.2.3.1-1',
      message: expect.stringContaining('nor described by an extension schema'),
    });
  });
});

describe('extension schemas (6.6.2.3.3, 6.7.8)', () => {
  it('fails a structure written with another prefix than ISO 19005 gives it', () => {
    const body = EXTENSION(PROPERTY('count', 'Integer'))
      .replaceAll('pdfaProperty:', 'prop:')
      .replace('<rdf:Bag>', `<rdf:Bag xmlns:prop="${NS.pdfaProperty}">`);
    const found = findings(`${body}<ex:count xmlns:ex="http://example.com/ns/">3</ex:count>`);
    expect(found.find((f) => f.rule === '6.6.2.3.3-7')?.message).toContain(
      'pdfaProperty:name is written with the prefix "prop"',
    );
  });

  it('fails an extension property without its required fields', () => {
    const body = EXTENSION(
      PROPERTY('count', 'Integer').replace(/<pdfaProperty:category>.*?<\/pdfaProperty:category>/, ''),
    );
    expect(findings(body)[0]).toMatchObject({
      rule: '6.6.2.3.3-9',
      message: expect.stringContaining('it has no pdfaProperty:category'),
    });
  });
});

describe('the information dictionary against the XMP (ISO 19005-1 6.7.3)', () => {
  const xmp = readXmp(
    packet(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Report</rdf:li></rdf:Alt></dc:title>
      <dc:creator><rdf:Seq><rdf:li>Ann</rdf:li></rdf:Seq></dc:creator>
      <xmp:CreateDate>2016-02-01T13:19:21+01:00</xmp:CreateDate><pdf:Producer>p 1.0</pdf:Producer>`),
  );
  const disagreements = (entries: Record<string, string>) =>
    infoDisagreements(new Map(Object.entries(entries)), xmp);

  it('passes equal values, and dates that are one moment written in two zones', () => {
    expect(
      disagreements({
        Title: 'Report',
        Author: 'Ann',
        Producer: 'p 1.0',
        CreationDate: 'D:20160201121921Z',
        Description: 'no analogue, not compared',
      }),
    ).toEqual([]);
    expect(disagreements({ CreationDate: "D:20160201131921+01'00'" })).toEqual([]);
  });

  it('fails a different value, a missing analogue and another date', () => {
    expect(disagreements({ Title: 'Other' })[0]).toContain('dc:title holds "Report"');
    expect(disagreements({ Keywords: 'a, b' })[0]).toContain('pdf:Keywords is missing');
    expect(disagreements({ CreationDate: 'D:20160201131921Z' })[0]).toContain('another date');
  });

  it('fails an author when dc:creator has more than one entry', () => {
    const two = readXmp(
      packet('<dc:creator><rdf:Seq><rdf:li>Ann</rdf:li><rdf:li>Bo</rdf:li></rdf:Seq></dc:creator>'),
    );
    expect(infoDisagreements(new Map([['Author', 'Ann']]), two)[0]).toContain('has 2 entries, not one');
  });
});

describe('XMP that is odd but allowed, or hostile', () => {
  it('reads a qualified value written with rdf:parseType="Resource" as the value, not a structure', () => {
    const body = `<xmp:Identifier><rdf:Bag><rdf:li rdf:parseType="Resource"><rdf:value>ISBN 1</rdf:value>
      <xmpidq:Scheme xmlns:xmpidq="http://ns.adobe.com/xmp/Identifier/qual/1.0/">ISBN</xmpidq:Scheme>
      </rdf:li></rdf:Bag></xmp:Identifier>`;
    expect(findings(body)).toEqual([]);
  });

  it('answers at once for an extension value type of 100,000 characters', () => {
    const started = Date.now();
    const body = `${EXTENSION(PROPERTY('count', `${'Bag '.repeat(25_000)}Integer`))}<ex:count xmlns:ex="http://example.com/ns/">3</ex:count>`;
    // a type of 25,000 nested arrays is no type XMP defines: the rule says so, and reads no deeper
    expect(findings(body)[0]).toMatchObject({
      rule: '6.6.2.3.3-8',
      message: expect.stringContaining('names a type, "Bag Bag Bag'),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('Info strings in PDFDocEncoding against the XMP', () => {
  it('reads 0x90 as a right single quote, so an Info title agrees with its dc:title', async () => {
    const { textString } = await import('../../src/pdf/cos/syntax.js');
    const title = textString(Uint8Array.from([0x49, 0x74, 0x90, 0x73, 0x20, 0x80, 0x20, 0xa0, 0x35]))!;
    expect(title).toBe('It\u2019s \u2022 \u20ac5');
    const xmp = readXmp(
      packet(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${title}</rdf:li></rdf:Alt></dc:title>`),
    );
    expect(infoDisagreements(new Map([['Title', title]]), xmp)).toEqual([]);
  });
});
