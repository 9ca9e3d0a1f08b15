/**
 * Rules as ISO 19005-2 (PDF/A-2) and ISO 14289-1 (PDF/UA-1) state them, each on a file made here with one
 * fault (pdf-lib), read by the real engine: the facts a rule needs, and the verdict of the check that claims
 * the clause. Conforming twins pass.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames as Ops,
  PDFString,
  StandardFonts,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLanguageTag, judge, type ProfileName } from '../../src/diagnosis/profiles.js';
import type { PreflightReport } from '../../src/diagnosis/report.js';
import { glyphNameMapsToUnicode } from '../../src/pdf/glyph-names.js';
import { Pdfium } from '../../src/pdf/pdfium.js';
import { inProcessReport } from '../helpers/in-process-report.js';

let pdfium: Pdfium;
let dir: string;
beforeAll(async () => {
  pdfium = await Pdfium.create(256 * 2 ** 20);
  dir = mkdtempSync(path.join(tmpdir(), 'ota-rules-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A one-page PDF with text, changed by `edit`, read as a run reads it. */
async function reportOf(
  name: string,
  edit: (doc: PDFDocument) => void | Promise<void>,
  profile?: ProfileName,
): Promise<PreflightReport> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const page = doc.addPage([200, 200]);
  page.drawText('Hello', { x: 20, y: 100, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  await edit(doc);
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, await doc.save({ useObjectStreams: false }));
  return inProcessReport(
    pdfium,
    file,
    profile && ((facts) => judge(profile, facts, {}, { printMinPpi: 300 })),
  );
}

const check = (report: PreflightReport, profile: ProfileName, id: string) =>
  judge(profile, report, {}, { printMinPpi: 300 }).checks.find((c) => c.id === id)!;

const xmp = (body: string) => `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" ${body}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;

function setMetadata(doc: PDFDocument, text: string): void {
  const stream = doc.context.stream(text, { Type: 'Metadata', Subtype: 'XML' });
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
}

const javascript = (doc: PDFDocument) =>
  doc.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') });

describe('pdf-archive: JavaScript anywhere (6.5.1)', () => {
  it('finds a JavaScript action in an annotation, an OpenAction, a page /AA and an outline item', async () => {
    const placements: Record<string, (doc: PDFDocument) => void> = {
      annotation: (doc) => {
        const link = doc.context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [10, 10, 50, 50],
          A: javascript(doc),
        });
        doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(link)]));
      },
      open_action: (doc) => doc.catalog.set(PDFName.of('OpenAction'), javascript(doc)),
      page_aa: (doc) => doc.getPage(0).node.set(PDFName.of('AA'), doc.context.obj({ O: javascript(doc) })),
      outline: (doc) => {
        const outlines = doc.context.nextRef();
        const item = doc.context.register(
          doc.context.obj({ Title: PDFString.of('One'), Parent: outlines, A: javascript(doc) }),
        );
        doc.context.assign(
          outlines,
          doc.context.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }),
        );
        doc.catalog.set(PDFName.of('Outlines'), outlines);
      },
      next_chain: (doc) =>
        doc.catalog.set(
          PDFName.of('OpenAction'),
          doc.context.obj({ S: 'GoTo', D: [doc.getPage(0).ref, 'Fit'], Next: javascript(doc) }),
        ),
    };
    for (const [where, place] of Object.entries(placements)) {
      const report = await reportOf(`js-${where}`, place);
      expect(report.document.javascript, where).toBe(true);
      expect(check(report, 'pdf-archive', 'no_javascript').status, where).toBe('fail');
    }
    const clean = await reportOf('js-none', (doc) =>
      doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj([doc.getPage(0).ref, 'Fit'])),
    );
    expect(clean.document.javascript).toBe(false);
    expect(check(clean, 'pdf-archive', 'no_javascript')).toMatchObject({ status: 'pass', clause: '6.5.1' });
  });
});

describe('pdf-archive: the PDF/A identification (6.6.4)', () => {
  const NS = 'xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"';
  it.each([
    ['conforming', `${NS} pdfaid:part="2" pdfaid:conformance="B">`, '2B'],
    ['as elements', `${NS}><pdfaid:part>2</pdfaid:part><pdfaid:conformance>U</pdfaid:conformance>`, '2U'],
    [
      'wrong namespace',
      `xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id" pdfaid:part="2" pdfaid:conformance="B">`,
      null,
    ],
    [
      'wrong prefix',
      `xmlns:pdfa="http://www.aiim.org/pdfa/ns/id/" pdfa:part="2" pdfa:conformance="B">`,
      null,
    ],
    ['no conformance', `${NS} pdfaid:part="2">`, null],
    ['bad part', `${NS} pdfaid:part="7" pdfaid:conformance="B">`, null],
  ])('%s', async (name, description, claim) => {
    const report = await reportOf(`pdfaid-${name.replaceAll(' ', '-')}`, (doc) =>
      setMetadata(doc, xmp(description)),
    );
    expect(report.document.pdfa).toBe(claim);
    expect(check(report, 'pdf-archive', 'xmp_pdfa_claim')).toMatchObject({
      status: claim ? 'pass' : 'fail',
      clause: '6.6.4',
    });
  });
});

describe('transparency: an opacity that rounds to 1 is opaque', () => {
  it.each([
    [0.9999999, false],
    [0.99, true],
  ])('CA %f', async (alpha, transparent) => {
    const report = await reportOf(`alpha-${alpha}`, (doc) => {
      const state = doc.context.register(doc.context.obj({ Type: 'ExtGState', CA: alpha, ca: alpha }));
      const resources = doc.getPage(0).node.Resources()!;
      resources.set(PDFName.of('ExtGState'), doc.context.obj({ GS1: state }));
    });
    expect(report.pages[0]!.transparency).toBe(transparent);
  });
});

describe('pdf-accessibility: language (7.2) and title (7.1)', () => {
  it('takes only a BCP 47 tag as a language', () => {
    for (const tag of [
      'en',
      'en-US',
      'EN-us',
      'de-DE-1996',
      'zh-Hant-TW',
      'sr-Latn',
      'x-private',
      'i-klingon',
      'es-419',
    ])
      expect(isLanguageTag(tag), tag).toBe(true);
    for (const tag of ['', 'en_US', 'en-', '12', 'english language', 'e', 'en--US', 'a-b'])
      expect(isLanguageTag(tag), tag).toBe(false);
  });

  it('fails a /Lang that is no BCP 47 tag, saying what to change', async () => {
    const report = await reportOf('lang-bad', (doc) =>
      doc.catalog.set(PDFName.of('Lang'), PDFString.of('en_US')),
    );
    expect(report.document.language).toBe('en_US');
    const language = check(report, 'pdf-accessibility', 'language');
    expect(language).toMatchObject({ status: 'fail', clause: '7.2' });
    expect(language.message).toMatch(/7\.2-29: the catalog's \/Lang: "en_US"/);
    expect(language.message).toMatch(/language tag/);
  });

  it('finds the title in XMP dc:title when the info dictionary has none', async () => {
    const report = await reportOf('title-xmp', (doc) => {
      setMetadata(
        doc,
        xmp(
          `xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Annual report &amp; accounts</rdf:li></rdf:Alt></dc:title>`,
        ),
      );
      doc.catalog.set(PDFName.of('ViewerPreferences'), doc.context.obj({ DisplayDocTitle: true }));
    });
    expect(report.document.title).toBeNull();
    expect(report.document.xmp_title).toBe('Annual report & accounts');
    expect(check(report, 'pdf-accessibility', 'title_displayed')).toMatchObject({
      status: 'pass',
      clause: '7.1',
    });
  });
});

describe('every check carries its clause', () => {
  it('archive and accessibility checks name theirs; print checks none', async () => {
    const report = await reportOf('clauses', () => undefined);
    // a check id no rule of the part belongs to is there, not applicable, with no clause
    for (const c of judge('pdf-archive', report, {}, { printMinPpi: 300 }).checks)
      if (c.id !== 'pages_readable' && c.status !== 'not_applicable')
        expect(c.clause, c.id).toMatch(/^6\.\d/);
    for (const c of judge('pdf-accessibility', report, {}, { printMinPpi: 300 }).checks)
      if (c.id !== 'pages_readable' && c.id !== 'scanned_pages')
        expect(c.clause, c.id).toMatch(/^(7\.\d|6\.[12]$|5$)/);
    for (const c of judge('pdf-print', report, {}, { printMinPpi: 300 }).checks) expect(c.clause).toBeNull();
  });
});

describe('one story: the summary counts what the verdict counts', () => {
  it('makes each failed check a finding and leaves the observations it judges to it', async () => {
    // Helvetica is not embedded, the file is not tagged, has no language and no title
    const report = await reportOf('story', () => undefined, 'pdf-accessibility');
    const failedErrors = report.profile!.checks.filter((c) => c.status === 'fail' && c.severity === 'error');
    expect(report.profile!.verdict).toBe('fail');
    expect(report.summary.errors).toBe(failedErrors.length);
    expect(
      report.findings
        .filter((f) => f.severity === 'error')
        .map((f) => f.code)
        .sort(),
    ).toEqual(failedErrors.map((c) => `check_${c.id}`).sort());
    // the font's observation is the fonts_embedded check's now: one finding, not two
    expect(report.findings.some((f) => f.code === 'font_not_embedded')).toBe(false);
    const fonts = report.findings.find((f) => f.code === 'check_fonts_embedded')!;
    expect(fonts).toMatchObject({ severity: 'error', page: 1, pages: [1] });
    // without a profile the observations are the findings
    const plain = await reportOf('story-plain', () => undefined);
    expect(plain.findings.some((f) => f.code === 'font_not_embedded')).toBe(true);
  });
});

describe('pdf-accessibility: the language may come from the structure elements (7.2)', () => {
  /** A structure tree Document > (P, P), with /Lang where given, and no catalog /Lang. */
  const tree = (langs: { document?: string; first?: string; second?: string }) => (doc: PDFDocument) => {
    const root = doc.context.nextRef();
    const document = doc.context.nextRef();
    const paragraph = (mcid: number, lang?: string) =>
      doc.context.register(
        doc.context.obj({
          Type: 'StructElem',
          S: 'P',
          P: document,
          Pg: doc.getPage(0).ref,
          K: mcid,
          ...(lang ? { Lang: PDFString.of(lang) } : {}),
        }),
      );
    const kids = [paragraph(0, langs.first), paragraph(1, langs.second)];
    doc.context.assign(
      document,
      doc.context.obj({
        Type: 'StructElem',
        S: 'Document',
        P: root,
        K: kids,
        ...(langs.document ? { Lang: PDFString.of(langs.document) } : {}),
      }),
    );
    doc.context.assign(root, doc.context.obj({ Type: 'StructTreeRoot', K: document }));
    doc.catalog.set(PDFName.of('StructTreeRoot'), root);
    doc.catalog.set(PDFName.of('MarkInfo'), doc.context.obj({ Marked: true }));
    // the page's text is the two paragraphs' marked content 0 and 1
    const page = doc.getPage(0).node;
    page.set(
      PDFName.of('Contents'),
      doc.context.register(
        doc.context.stream(
          '/P <</MCID 0>> BDC BT /F1 12 Tf 20 120 Td (Hello) Tj ET EMC ' +
            '/P <</MCID 1>> BDC BT /F1 12 Tf 20 100 Td (again) Tj ET EMC',
        ),
      ),
    );
    page
      .Resources()!
      .set(
        PDFName.of('Font'),
        doc.context.obj({ F1: doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' }) }),
      );
  };

  it('passes when every piece of content inherits a language from its elements', async () => {
    const report = await reportOf('lang-document', tree({ document: 'de-DE' }));
    expect(report.document).toMatchObject({
      language: null,
      struct_content: 2,
      struct_content_without_language: 0,
      struct_languages: ['de-DE'],
    });
    expect(check(report, 'pdf-accessibility', 'language')).toMatchObject({ status: 'pass', clause: '7.2' });
    const each = await reportOf('lang-each', tree({ first: 'en-GB', second: 'fr' }));
    expect(check(each, 'pdf-accessibility', 'language').status).toBe('pass');
  });

  it('takes the language of marked content around the text, and asks one of alternate text', async () => {
    // the first paragraph's text sits in a Span with /Lang; the second has no language anywhere
    const marked = (spanLang: string) => (doc: PDFDocument) => {
      tree({ second: 'fr' })(doc);
      const page = doc.getPage(0).node;
      page.set(
        PDFName.of('Contents'),
        doc.context.register(
          doc.context.stream(
            `/P <</MCID 0>> BDC /Span <<${spanLang}>> BDC BT /F1 12 Tf 10 10 Td (hello) Tj ET EMC EMC ` +
              '/P <</MCID 1>> BDC 0 0 5 5 re f EMC',
          ),
        ),
      );
      page
        .Resources()!
        .set(
          PDFName.of('Font'),
          doc.context.obj({ F1: doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' }) }),
        );
    };
    const spanned = await reportOf('lang-marked-content', marked('/Lang (en-US)'));
    expect(spanned.document.struct_content_without_language).toBe(0);
    expect(check(spanned, 'pdf-accessibility', 'language').status).toBe('pass');
    const bare = await reportOf('lang-marked-none', marked('/ActualText (hello)'));
    expect(bare.document.struct_content_without_language).toBe(1);
    expect(check(bare, 'pdf-accessibility', 'language').status).toBe('fail');
    // an element's /Alt is text: without a language from the element or above, it counts as such
    const alt = await reportOf('lang-alt', (doc) => {
      marked('/Lang (en-US)')(doc);
      const first = doc.context.lookup(
        doc.context.lookup(doc.catalog.get(PDFName.of('StructTreeRoot')), PDFDict).get(PDFName.of('K')),
        PDFDict,
      );
      const kids = first.lookup(PDFName.of('K'), PDFArray);
      kids.lookup(0, PDFDict).set(PDFName.of('Alt'), PDFString.of('a greeting'));
    });
    expect(alt.document.struct_content_without_language).toBe(1);
  });

  it('fails content without a language, and a /Lang that is no BCP 47 tag', async () => {
    const partly = await reportOf('lang-partly', tree({ first: 'en-GB' }));
    expect(partly.document.struct_content_without_language).toBe(1);
    expect(check(partly, 'pdf-accessibility', 'language')).toMatchObject({ status: 'fail' });
    const malformed = await reportOf('lang-malformed', tree({ document: 'de_DE' }));
    expect(check(malformed, 'pdf-accessibility', 'language').message).toMatch(
      /7\.2-29: structure element Document .*"de_DE"/,
    );
  });
});

describe('pdf-accessibility: Unicode by the Adobe Glyph List (ISO 32000-1 9.10.2, PDF/UA 7.21.7)', () => {
  it('reads glyph names as the AGL specification maps them', () => {
    for (const name of [
      'a',
      'fi',
      'ffi',
      'dotlessi',
      'quoteright',
      'uni00E9',
      'uni00450301',
      'u1F600',
      'f_f',
      'a.sc',
    ])
      expect(glyphNameMapsToUnicode(name), name).toBe(true);
    for (const name of ['g123', 'cwm', 'uniD800', 'u110000', 'uni00e9', '', '.notdef', 'a_g7'])
      expect(glyphNameMapsToUnicode(name), name).toBe(false);
  });

  /** The text's font replaced by Helvetica with an encoding dictionary (and no ToUnicode map). */
  const withEncoding = (encoding: Record<string, unknown>) => (doc: PDFDocument) => {
    const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    const [name] = fonts.keys();
    const font = doc.context.obj({
      Type: 'Font',
      Subtype: 'Type1',
      BaseFont: 'Helvetica',
      Encoding: doc.context.obj(encoding as never),
    });
    fonts.set(name!, doc.context.register(font));
  };

  it('a simple font whose Differences are all AGL names maps to Unicode without a ToUnicode map', async () => {
    const report = await reportOf(
      'agl-differences',
      withEncoding({ Type: 'Encoding', Differences: [72, 'H', 'e', 'l', 'l', 'o', 2, 'fi'] }),
    );
    expect(report.pages[0]!.fonts[0]).toMatchObject({
      to_unicode: false,
      encoding: 'Custom',
      unicode_mapping: 'glyph_names',
    });
    expect(check(report, 'pdf-accessibility', 'unicode_text')).toMatchObject({
      status: 'pass',
      clause: '7.21.7',
    });
  });

  it('a glyph name the AGL does not know leaves the font with no mapping, and the check fails', async () => {
    const report = await reportOf(
      'agl-unknown',
      // the text's "e" (code 101) named by a name the AGL does not know
      withEncoding({ Type: 'Encoding', Differences: [101, 'g101'] }),
    );
    expect(report.pages[0]!.fonts[0]!.unicode_mapping).toBe('none');
    expect(check(report, 'pdf-accessibility', 'unicode_text')).toMatchObject({ status: 'fail', pages: [1] });
  });

  it('a standard encoding maps by itself', async () => {
    const report = await reportOf('agl-winansi', () => undefined);
    expect(report.pages[0]!.fonts[0]!.unicode_mapping).toBe('standard_encoding');
  });
});

describe('content read from the page: device colour (PDF/A 6.2.4.3) and untagged content (PDF/UA 7.1)', () => {
  /** Content appended to the page: `operators` as written. */
  const appended = (operators: string) => (doc: PDFDocument) => {
    const page = doc.getPage(0);
    const stream = doc.context.register(doc.context.stream(operators));
    // pdf-lib's page holds an array of content streams already
    page.node.lookup(PDFName.of('Contents'), PDFArray).push(stream);
  };

  it('names each device space painted with, through operators, cs, inline images and a Default space', async () => {
    const report = await reportOf(
      'device-colours',
      appended('0 0 0 1 k /DeviceGray cs 0.5 sc BI /W 1 /H 1 /CS /RGB /BPC 8 ID \x00\x00\x00 EI'),
    );
    expect(report.pages[0]!.device_colors).toEqual(['cmyk', 'gray', 'rgb']);
    expect(check(report, 'pdf-archive', 'output_intent')).toMatchObject({
      status: 'fail',
      clause: '6.2.4.3',
      pages: [1],
    });
    const replaced = await reportOf('default-rgb', (doc) => {
      appended('1 0 0 rg 0 0 5 5 re f')(doc);
      const icc = doc.context.register(doc.context.stream(new Uint8Array(200), { N: 3 }));
      doc
        .getPage(0)
        .node.Resources()!
        .set(PDFName.of('ColorSpace'), doc.context.obj({ DefaultRGB: [PDFName.of('ICCBased'), icc] }));
    });
    // pdf-lib draws its text with `rg`, which the DefaultRGB replaces too
    expect(replaced.pages[0]!.device_colors).toEqual([]);
    expect(check(replaced, 'pdf-archive', 'output_intent').status).toBe('pass');
  });

  it('counts painting outside marked content with an MCID or an Artifact, and nothing inside', async () => {
    const tagged = await reportOf('tagged-content', (doc) => {
      const page = doc.getPage(0).node;
      const stream = (text: string) => doc.context.register(doc.context.stream(text));
      const original = page.lookup(PDFName.of('Contents'), PDFArray).asArray();
      // a marked-content sequence may run from one of the page's content streams into the next
      page.set(
        PDFName.of('Contents'),
        doc.context.obj([
          stream('/P <</MCID 0>> BDC'),
          ...original,
          stream('EMC /Artifact BMC 0 0 5 5 re f EMC'),
        ]),
      );
    });
    expect(tagged.pages[0]!.untagged_content).toBe(0);
    const untagged = await reportOf(
      'untagged-content',
      appended('0 0 5 5 re f /Span <</Lang (en)>> BDC 0 0 5 5 re S EMC'),
    );
    // pdf-lib's own text, the rectangle, and the Span without an MCID
    expect(untagged.pages[0]!.untagged_content).toBe(3);
  });

  it('counts tagged content inside an artifact, which is both at once (7.1, tagged_artifacts)', async () => {
    const both = await reportOf(
      'tagged-in-artifact',
      appended('/Artifact BMC /P <</MCID 0>> BDC 0 0 5 5 re f EMC EMC /P <</MCID 1>> BDC EMC'),
    );
    expect(both.pages[0]!.tagged_in_artifacts).toBe(1);
    // an artifact after tagged content, and tagged content after an artifact closed, are each one thing
    const apart = await reportOf(
      'tagged-beside-artifact',
      appended('/Artifact BMC EMC /P <</MCID 0>> BDC /Artifact BMC 0 0 5 5 re f EMC EMC'),
    );
    expect(apart.pages[0]!.tagged_in_artifacts).toBe(0);
  });
});

describe('pdf-archive: transparency and its blending colour space (6.2.10, 6.2.4.3)', () => {
  /** A page whose resources hold a constant alpha of 0.5, in a Type 3 font's resources when `inType3`. */
  const translucent =
    (inType3 = false) =>
    (doc: PDFDocument) => {
      const page = doc.getPage(0);
      const alpha = doc.context.obj({ Type: 'ExtGState', ca: 0.5 });
      // the page paints with the state (a state in the resources that nothing uses makes no transparency)
      if (!inType3) {
        page.node.setExtGState(PDFName.of('GS1'), alpha);
        page.pushOperators(
          PDFOperator.of(Ops.SetGraphicsStateParams, [PDFName.of('GS1')]),
          PDFOperator.of(
            Ops.AppendRectangle,
            [10, 10, 50, 50].map((n) => PDFNumber.of(n)),
          ),
          PDFOperator.of(Ops.FillNonZero),
        );
        return;
      }
      const glyph = doc.context.register(doc.context.stream('0 0 d0 /GS1 gs 0 0 1 1 re f'));
      const font = doc.context.obj({
        Type: 'Font',
        Subtype: 'Type3',
        FontBBox: [0, 0, 1, 1],
        FontMatrix: [1, 0, 0, 1, 0, 0],
        CharProcs: { a: glyph },
        Encoding: { Type: 'Encoding', Differences: [97, PDFName.of('a')] },
        FirstChar: 97,
        LastChar: 97,
        Widths: [1],
        Resources: { ExtGState: { GS1: alpha } },
      });
      page.node.setFontDictionary(PDFName.of('T3'), doc.context.register(font));
      // text shows the glyph, whose own resources make it translucent
      page.pushOperators(
        PDFOperator.of(Ops.BeginText),
        PDFOperator.of(Ops.SetFontAndSize, [PDFName.of('T3'), PDFNumber.of(12)]),
        PDFOperator.of(Ops.ShowText, [PDFString.of('a')]),
        PDFOperator.of(Ops.EndText),
      );
    };
  const group = (space: string) => (doc: PDFDocument) =>
    doc
      .getPage(0)
      .node.set(PDFName.of('Group'), doc.context.obj({ Type: 'Group', S: 'Transparency', CS: space }));
  const rgbIntent = (doc: PDFDocument) => {
    const header = new Uint8Array(128);
    header.set(new TextEncoder().encode('mntrRGB XYZ '), 12);
    header.set(new TextEncoder().encode('acsp'), 36);
    const profile = doc.context.register(doc.context.stream(header, { N: 3 }));
    doc.catalog.set(
      PDFName.of('OutputIntents'),
      doc.context.obj([
        {
          Type: 'OutputIntent',
          S: 'GTS_PDFA1',
          OutputConditionIdentifier: 'sRGB',
          DestOutputProfile: profile,
        },
      ]),
    );
  };
  const both =
    (...edits: ((doc: PDFDocument) => void)[]) =>
    (doc: PDFDocument) => {
      for (const edit of edits) edit(doc);
    };

  it('fails a translucent page with no blending colour space and no PDF/A output intent', async () => {
    const report = await reportOf('blend-none', translucent());
    expect(report.pages[0]).toMatchObject({ transparency: true, group_color_space: null });
    expect(check(report, 'pdf-archive', 'blending_color_space')).toMatchObject({
      status: 'fail',
      clause: '6.2.10',
      pages: [1],
    });
  });

  it("finds the transparency in a Type 3 font's own resources", async () => {
    const report = await reportOf('blend-type3', translucent(true));
    expect(report.pages[0]!.transparency).toBe(true);
    expect(check(report, 'pdf-archive', 'blending_color_space').status).toBe('fail');
  });

  it('passes the page whose transparency group names an ICC-based colour space, and any page under an output intent', async () => {
    const icc = (doc: PDFDocument) => {
      const profile = doc.context.register(doc.context.stream(new Uint8Array(128), { N: 3 }));
      doc
        .getPage(0)
        .node.set(
          PDFName.of('Group'),
          doc.context.obj({ Type: 'Group', S: 'Transparency', CS: [PDFName.of('ICCBased'), profile] }),
        );
    };
    const named = await reportOf('blend-named', both(translucent(), icc));
    expect(named.pages[0]).toMatchObject({ group_color_space: 'ICCBased', group_device_colors: [] });
    expect(check(named, 'pdf-archive', 'blending_color_space').status).toBe('pass');
    const intent = await reportOf('blend-intent', both(translucent(), rgbIntent));
    expect(check(intent, 'pdf-archive', 'blending_color_space').status).toBe('pass');
    const opaque = await reportOf('blend-opaque', () => undefined);
    expect(check(opaque, 'pdf-archive', 'blending_color_space').status).toBe('pass');
  });

  it('holds a device blending colour space to the output intent, as device colour is, and fails it without one', async () => {
    const cmyk = await reportOf('blend-cmyk-under-rgb', both(group('DeviceCMYK'), rgbIntent));
    expect(cmyk.pages[0]!.group_device_colors).toEqual(['cmyk']);
    expect(cmyk.pages[0]!.device_colors).not.toContain('cmyk');
    // a group's device blending space is device colour in use: ISO 19005-2 6.2.4.3 holds it to the intent
    expect(check(cmyk, 'pdf-archive', 'output_intent')).toMatchObject({ status: 'fail', pages: [1] });
    expect(check(cmyk, 'pdf-archive', 'output_intent').rules?.find((r) => r.status === 'fail')).toMatchObject(
      { clause: '6.2.4.3', test: 3 },
    );
    const rgb = await reportOf('blend-rgb-under-rgb', both(group('DeviceRGB'), rgbIntent));
    expect(check(rgb, 'pdf-archive', 'blending_color_space').status).toBe('pass');
    const alone = await reportOf('blend-rgb-no-intent', both(translucent(), group('DeviceRGB')));
    // without an output intent the group's DeviceRGB is device colour no intent covers (6.2.4.3)
    expect(check(alone, 'pdf-archive', 'output_intent').status).toBe('fail');
  });
});

describe('pdf-archive: the file header (6.1.2) and output intent profiles in ASCII filters (6.2.3)', () => {
  /** A one-page PDF whose first line pdf-lib wrote as `%PDF-1.7` is rewritten to `header` (same length). */
  async function withHeader(name: string, header: string, claim?: string): Promise<PreflightReport> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.addPage([200, 200]);
    if (claim)
      setMetadata(
        doc,
        xmp(`xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="${claim}" pdfaid:conformance="B">`),
      );
    const bytes = await doc.save({ useObjectStreams: false });
    expect(Buffer.from(bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
    bytes.set(Buffer.from(header, 'latin1'), 0);
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, bytes);
    return inProcessReport(pdfium, file);
  }

  it('passes %PDF-1.7 with its binary comment, and fails a version PDF/A-2 does not know', async () => {
    expect(check(await withHeader('header-ok', '%PDF-1.7'), 'pdf-archive', 'file_header')).toMatchObject({
      status: 'pass',
      clause: '6.1.2',
    });
    const late = check(await withHeader('header-1.9', '%PDF-1.9'), 'pdf-archive', 'file_header');
    expect(late).toMatchObject({ status: 'fail' });
    expect(late.message).toContain('"1.9"');
  });

  it('holds a file that claims PDF/A-1 to ISO 19005-1, which takes any n.n', async () => {
    const claimed = await withHeader('header-2.0-part1', '%PDF-2.0', '1');
    expect(check(claimed, 'pdf-archive', 'file_header').status).toBe('pass');
    const bad = await withHeader('header-a.4-part1', '%PDF-a.4', '1');
    expect(check(bad, 'pdf-archive', 'file_header').status).toBe('fail');
  });

  it('reads an output intent profile coded with ASCIIHex', async () => {
    const report = await reportOf('intent-hex', (doc) => {
      const header = new Uint8Array(128);
      header.set(new TextEncoder().encode('prtrCMYKLab '), 12);
      header.set(new TextEncoder().encode('acsp'), 36);
      const hex = `${Buffer.from(header).toString('hex')}>`;
      const profile = doc.context.register(doc.context.stream(hex, { N: 4, Filter: 'ASCIIHexDecode' }));
      doc.catalog.set(
        PDFName.of('OutputIntents'),
        doc.context.obj([{ Type: 'OutputIntent', S: 'GTS_PDFA1', DestOutputProfile: profile }]),
      );
    });
    expect(report.document.output_intents[0]).toMatchObject({
      profile_class: 'prtr',
      profile_color_space: 'CMYK',
    });
    expect(check(report, 'pdf-archive', 'output_intent_profile').status).toBe('pass');
  });
});

describe('pdf-archive: page boundaries, one of the implementation limits (6.1.13)', () => {
  it('fails a page smaller than 3 units or larger than 14,400, naming the box, and passes one of 2 x 200 inches', async () => {
    const sized = (width: number, height: number) => (doc: PDFDocument) =>
      doc.getPage(0).setMediaBox(0, 0, width, height);
    const tiny = check(await reportOf('box-tiny', sized(2, 200)), 'pdf-archive', 'implementation_limits');
    expect(tiny).toMatchObject({ status: 'fail', clause: '6.1.13' });
    expect(tiny.message).toMatch(/6\.1\.13-11: page 1, MediaBox: 2 x 200 units/);
    const huge = check(
      await reportOf('box-huge', sized(14_401, 200)),
      'pdf-archive',
      'implementation_limits',
    );
    expect(huge.status).toBe('fail');
    const edge = check(await reportOf('box-edge', sized(3, 14_400)), 'pdf-archive', 'implementation_limits');
    expect(edge.status).toBe('pass');
  });
});

describe('pdf-archive: the part the file is held to', () => {
  const PDFAID = 'xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"';
  const judgeWith = (report: PreflightReport, options: Parameters<typeof judge>[2] = {}) =>
    judge('pdf-archive', report, options, { printMinPpi: 300 });

  it('holds a file to the part it claims, with that part clauses, and says so', async () => {
    const report = await reportOf('part-1-claim', (doc) =>
      setMetadata(doc, xmp(`${PDFAID} pdfaid:part="1" pdfaid:conformance="B">`)),
    );
    const profile = judgeWith(report);
    expect(profile.judged_as).toEqual({ part: 1, basis: 'claim', standard: 'ISO 19005-1' });
    expect(profile.title).toBe('PDF/A-1b requirements checked, as the file claims (not a PDF/A validation)');
    expect(profile.checks.find((c) => c.id === 'fonts_embedded')?.clause).toBe('6.3.4');
    expect(profile.checks.find((c) => c.id === 'xmp_pdfa_claim')?.clause).toBe('6.7.11');
    expect(profile.checks.find((c) => c.id === 'xmp_properties')?.clause).toBe('6.7.9');
    expect(profile.checks.find((c) => c.id === 'xmp_info_agreement')?.status).not.toBe('not_applicable');
  });

  it('holds a file with no claim to PDF/A-2, and one with pdfa_part to the part asked', async () => {
    const report = await reportOf('part-none', () => undefined);
    expect(judgeWith(report).judged_as).toEqual({ part: 2, basis: 'default', standard: 'ISO 19005-2' });
    expect(judgeWith(report).title).toContain('the file claims no PDF/A part');
    const three = judgeWith(report, { pdfa_part: 3 });
    expect(three.judged_as).toEqual({ part: 3, basis: 'option', standard: 'ISO 19005-3' });
    expect(three.checks.find((c) => c.id === 'no_embedded_files')?.status).toBe('not_applicable');
    expect(judgeWith(report, { pdfa_part: 1 }).checks.find((c) => c.id === 'output_intent')?.clause).toBe(
      '6.2.3.3',
    );
  });
});

describe('pdf-accessibility: annotation descriptions (7.18.1)', () => {
  /** A text annotation at `rect`, held by a structure element (with `alt` when given) through the parent tree. */
  const annotated = (rect: number[], alt?: string) => (doc: PDFDocument) => {
    const note = doc.context.register(
      doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: rect, F: 4, StructParent: 7 }),
    );
    doc.getPage(0).node.set(PDFName.of('Annots'), doc.context.obj([note]));
    const root = doc.context.nextRef();
    const element = doc.context.register(
      doc.context.obj({
        Type: 'StructElem',
        S: 'Annot',
        P: root,
        K: doc.context.obj({ Type: 'OBJR', Obj: note }),
        ...(alt === undefined ? {} : { Alt: PDFString.of(alt) }),
      }),
    );
    doc.context.assign(
      root,
      doc.context.obj({
        Type: 'StructTreeRoot',
        K: element,
        ParentTree: doc.context.obj({ Kids: [doc.context.obj({ Limits: [0, 10], Nums: [7, element] })] }),
      }),
    );
    doc.catalog.set(PDFName.of('StructTreeRoot'), root);
  };
  const descriptions = async (name: string, edit: (doc: PDFDocument) => void) =>
    check(await reportOf(name, edit), 'pdf-accessibility', 'annotation_descriptions');

  it('takes an /Alt on the structure element that holds the annotation, found through the parent tree', async () => {
    const described = await reportOf('annot-alt', annotated([10, 10, 50, 50], 'A reviewer note'));
    expect(described.pages[0]?.annotation_details[0]).toMatchObject({ alt: true, outside_crop: false });
    expect(check(described, 'pdf-accessibility', 'annotation_descriptions').status).toBe('pass');
    expect((await descriptions('annot-no-alt', annotated([10, 10, 50, 50]))).status).toBe('fail');
    // an empty /Alt describes nothing (a space is text, as veraPDF's published test reads it)
    expect((await descriptions('annot-empty-alt', annotated([10, 10, 50, 50], ''))).status).toBe('fail');
  });

  it('leaves out an annotation whose rectangle lies outside the crop box', async () => {
    const outside = await reportOf('annot-outside', annotated([300, 300, 350, 350]));
    expect(outside.pages[0]?.annotation_details[0]).toMatchObject({ alt: false, outside_crop: true });
    expect(check(outside, 'pdf-accessibility', 'annotation_descriptions').status).toBe('pass');
  });
});

describe('pdf-archive: what the content streams paint and write (6.2.4.3, 6.2.10, 6.1.13, 6.2.8.1)', () => {
  /** A one-page PDF whose content is `content`, with `resources` built by `build`, and no output intent. */
  async function contentReport(
    name: string,
    content: string,
    build: (doc: PDFDocument) => Record<string, unknown> = () => ({}),
  ): Promise<PreflightReport> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    const page = doc.addPage([200, 200]);
    const resources = build(doc);
    page.node.set(PDFName.of('Resources'), doc.context.obj(resources as never));
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    const file = path.join(dir, `${name}.pdf`);
    writeFileSync(file, await doc.save({ useObjectStreams: false }));
    return inProcessReport(pdfium, file);
  }
  const iccSpace = (doc: PDFDocument) => ({
    ColorSpace: {
      CS0: [PDFName.of('ICCBased'), doc.context.register(doc.context.stream(new Uint8Array(128), { N: 1 }))],
    },
  });
  const part = (report: PreflightReport, n: 1 | 2, id: string) =>
    judge('pdf-archive', report, { pdfa_part: n }, { printMinPpi: 300 }).checks.find((c) => c.id === id)!;

  it('counts painting with a colour never set as DeviceGray, and invisible text or an ICC colour as none', async () => {
    const unset = await contentReport('default-fill', '0 0 10 10 re f');
    expect(unset.pages[0]!.device_colors).toEqual(['gray']);
    expect(check(unset, 'pdf-archive', 'output_intent').status).toBe('fail');
    const stroked = await contentReport('default-stroke', '/CS0 cs 0.5 sc 0 0 10 10 re B', iccSpace);
    expect(stroked.pages[0]!.device_colors).toEqual(['gray']);
    const icc = await contentReport('icc-fill', '/CS0 cs /CS0 CS 0.5 sc 0.5 SC 0 0 10 10 re B', iccSpace);
    expect(icc.pages[0]!.device_colors).toEqual([]);
    expect(check(icc, 'pdf-archive', 'output_intent').status).toBe('pass');
    // a q ... Q restores the unset colour
    const restored = await contentReport('restored', 'q /CS0 cs 0.5 sc Q 0 0 10 10 re f', iccSpace);
    expect(restored.pages[0]!.device_colors).toEqual(['gray']);
    const invisible = await contentReport(
      'invisible-text',
      'BT /F1 12 Tf 3 Tr 10 10 Td (ocr) Tj ET',
      (doc) => ({ Font: { F1: doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' }) } }),
    );
    expect(invisible.pages[0]!.device_colors).toEqual([]);
  });

  it("reads a coloured tiling pattern's cell and a Type 3 font's d0 glyphs, not its d1 glyphs", async () => {
    const tiling = (paintType: number) => (doc: PDFDocument) => ({
      ...iccSpace(doc),
      Pattern: {
        P1: doc.context.register(
          doc.context.stream('0 0 0 1 k 0 0 5 5 re f', {
            Type: 'Pattern',
            PatternType: 1,
            PaintType: paintType,
            TilingType: 1,
            BBox: [0, 0, 5, 5],
            XStep: 5,
            YStep: 5,
            Resources: {},
          }),
        ),
      },
    });
    const coloured = await contentReport('tiling-cmyk', '/Pattern cs /P1 scn 0 0 10 10 re f', tiling(1));
    expect(coloured.pages[0]!.device_colors).toEqual(['cmyk']);
    const uncoloured = await contentReport(
      'tiling-uncoloured',
      '/Pattern cs /P1 scn 0 0 10 10 re f',
      tiling(2),
    );
    expect(uncoloured.pages[0]!.device_colors).toEqual([]);
    const type3 = (operator: string) => (doc: PDFDocument) => ({
      Font: {
        T3: doc.context.register(
          doc.context.obj({
            Type: 'Font',
            Subtype: 'Type3',
            FontBBox: [0, 0, 1, 1],
            FontMatrix: [0.001, 0, 0, 0.001, 0, 0],
            CharProcs: { a: doc.context.register(doc.context.stream(`${operator} 1 0 0 1 k 0 0 1 1 re f`)) },
            Encoding: { Type: 'Encoding', Differences: [97, PDFName.of('a')] },
            FirstChar: 97,
            LastChar: 97,
            Widths: [1000],
          }),
        ),
      },
      ...iccSpace(doc),
    });
    const d0 = await contentReport('type3-d0', '/CS0 cs 0 sc BT /T3 12 Tf (a) Tj ET', type3('1000 0 d0'));
    expect(d0.pages[0]!.device_colors).toEqual(['cmyk']);
    const d1 = await contentReport(
      'type3-d1',
      '/CS0 cs 0 sc BT /T3 12 Tf (a) Tj ET',
      type3('1000 0 0 0 1 1 d1'),
    );
    expect(d1.pages[0]!.device_colors).toEqual([]);
  });

  it('holds content numbers and q nesting to the limits of the part judged', async () => {
    const icc = '/CS0 cs 0 sc ';
    const wideReal = await contentReport('real-60000', `${icc}BT 60000.5 Tz ET`, iccSpace);
    expect(part(wideReal, 1, 'implementation_limits')).toMatchObject({ status: 'fail', clause: '6.1.12' });
    expect(part(wideReal, 1, 'implementation_limits').message).toContain('60000.5');
    expect(part(wideReal, 2, 'implementation_limits').status).toBe('pass');
    const edgeReal = await contentReport('real-32767', `${icc}BT 32767.0 Tz ET`, iccSpace);
    expect(part(edgeReal, 1, 'implementation_limits').status).toBe('pass');
    const wideInteger = await contentReport('integer-2157483648', `${icc}2157483648 w`, iccSpace);
    expect(part(wideInteger, 2, 'implementation_limits')).toMatchObject({ status: 'fail', clause: '6.1.13' });
    const edgeInteger = await contentReport('integer-2147483647', `${icc}2147483647 w`, iccSpace);
    expect(part(edgeInteger, 2, 'implementation_limits').status).toBe('pass');
    const deep = await contentReport('q-29', `${icc}${'q '.repeat(29)}${'Q '.repeat(29)}`, iccSpace);
    expect(part(deep, 2, 'implementation_limits').message).toContain('a q at nesting level 29');
    const edge = await contentReport('q-28', `${icc}${'q '.repeat(28)}${'Q '.repeat(28)}`, iccSpace);
    expect(part(edge, 1, 'implementation_limits').status).toBe('pass');
  });

  it('fails an inline image that asks to be interpolated', async () => {
    const image = (interpolate: string) =>
      `/CS0 cs 0 sc q 10 0 0 10 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /CS0 ${interpolate} ID \x80 EI Q`;
    const interpolated = await contentReport('inline-interpolated', image('/I true'), iccSpace);
    expect(part(interpolated, 2, 'image_dictionaries')).toMatchObject({ status: 'fail', clause: '6.2.8' });
    const plain = await contentReport('inline-plain', image('/I false'), iccSpace);
    expect(part(plain, 2, 'image_dictionaries').status).toBe('pass');
  });
});
