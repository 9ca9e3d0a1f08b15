import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pdfium } from '../../src/pdf/pdfium.js';
import type { PreflightReport } from '../../src/diagnosis/report.js';
import { judge, type ProfileName } from '../../src/diagnosis/profiles.js';
import type { RunOptions } from '../../src/store/types.js';
import { compareFacts, type FactTruth } from '../helpers/fact-truth.js';
import { inProcessReport } from '../helpers/in-process-report.js';

/**
 * The preflight facts against poppler and qpdf (facts-truth.json, recorded by scripts/record-fact-truth.mts),
 * on every real, derived and profile PDF of the repository; then each profile's checks on the fixtures made
 * for them (scripts/make-profile-fixtures.mts), pass and fail, with the expected verdict.
 */
const PDFS = path.resolve(import.meta.dirname, '../fixtures/pdfs');
const truth = JSON.parse(readFileSync(path.join(PDFS, 'facts-truth.json'), 'utf8')) as Record<
  string,
  FactTruth
>;

let pdfium: Pdfium;
beforeAll(async () => {
  pdfium = await Pdfium.create(512 * 2 ** 20);
});
const reports = new Map<string, PreflightReport>();
afterAll(() => reports.clear());

/** The report of `file` as a run makes it, without the HTTP and queue around it (cached: files are read once). */
function reportOf(file: string): PreflightReport {
  const known = reports.get(file);
  if (known) return known;
  const report = inProcessReport(pdfium, path.join(PDFS, file));
  reports.set(file, report);
  return report;
}

/**
 * The facts where we knowingly differ from poppler, per file: the fact, poppler's answer (its truth in
 * facts-truth.json, so that a change of it shows here) and why. Nothing else may disagree.
 */
const KNOWN_DIFFERENCES: Record<string, { fact: string; poppler: unknown; reason: string }[]> = {
  'real/libcam-pdf-perl__crunchjpg_tmpl.pdf': [
    'image_color_space',
    'image_bits_per_component',
    'image_encoding',
  ].map((fact) => ({
    fact,
    poppler: [],
    reason:
      'a template whose `cm` has placeholders (`xxx 0 0 yyy 0 0 cm`): poppler drops the image drawn after it, PDFium draws it (100x100 RGB, RunLength) with the CTM it had',
  })),
};

describe('the facts agree with poppler and qpdf', () => {
  it.each(Object.keys(truth))('%s', (file) => {
    const agreement = compareFacts(truth[file]!, reportOf(file));
    const known = KNOWN_DIFFERENCES[file] ?? [];
    const disagreeing = Object.entries(agreement)
      .filter(([, [agree, total]]) => agree !== total)
      .map(([fact]) => fact);
    expect(disagreeing).toEqual(known.map((k) => k.fact));
    for (const difference of known)
      if (difference.fact.startsWith('image_'))
        expect(truth[file]!.images.filter((i) => i.page === 1)).toEqual(difference.poppler);
    expect(Object.keys(agreement).length).toBeGreaterThanOrEqual(10);
  });

  it('agree on at least 99 % of the (file, fact) pairs, and on every fact of fonts and images', () => {
    const totals: Record<string, [number, number]> = {};
    let pairs = 0;
    let agreeing = 0;
    for (const file of Object.keys(truth))
      for (const [fact, [agree, total]] of Object.entries(compareFacts(truth[file]!, reportOf(file)))) {
        const sum = (totals[fact] ??= [0, 0]);
        sum[0] += agree;
        sum[1] += total;
        pairs++;
        if (agree === total) agreeing++;
      }
    expect(agreeing / pairs).toBeGreaterThanOrEqual(0.99);
    for (const fact of ['font_embedded', 'font_subset', 'font_to_unicode', 'font_used_for_rendering'])
      expect(totals[fact]![0], fact).toBe(totals[fact]![1]);
    expect(totals.fonts_not_embedded![0]).toBe(totals.fonts_not_embedded![1]);
  });
});

describe('facts with known answers', () => {
  it('transparency: an alpha below 1 and a page group count, a plain page does not', () => {
    expect(reportOf('profiles/print-rgb-lowres-unembedded.pdf').pages[0]!.transparency).toBe(true);
    expect(reportOf('profiles/archive-pdfa1-claim-transparency.pdf').pages[0]!.transparency).toBe(true);
    expect(reportOf('profiles/print-pdfx3-cmyk-320ppi.pdf').pages[0]!.transparency).toBe(false);
    expect(reportOf('profiles/accessibility-untagged.pdf').pages[0]!.transparency).toBe(false);
  });

  it('spot colours: a Separation colorant, listed on its page and on the document', () => {
    const report = reportOf('profiles/print-pdfx3-cmyk-320ppi.pdf');
    expect(report.pages[0]!.spot_colors).toEqual(['PANTONE 021 C']);
    expect(report.document.spot_colors).toEqual(['PANTONE 021 C']);
    expect(reportOf('profiles/print-bleed-1mm.pdf').document.spot_colors).toEqual([]);
  });

  it('the XMP claims, the PDF/X version, and a CMYK output intent', () => {
    expect(reportOf('profiles/archive-pdfa2b-ghostscript.pdf').document).toMatchObject({
      pdfa: '2B',
      xmp_metadata: true,
      output_intents: [{ subtype: 'GTS_PDFA1', identifier: 'sRGB', components: 3 }],
    });
    expect(reportOf('profiles/print-pdfx3-cmyk-320ppi.pdf').document).toMatchObject({
      pdfx: 'PDF/X-3:2002',
      output_intents: [{ subtype: 'GTS_PDFX', identifier: 'FOGRA39', components: 4 }],
    });
  });

  it('font encodings as the dictionaries name them, Custom for one with Differences', () => {
    const fonts = reportOf('profiles/accessibility-tagged-no-alt-scan.pdf').pages[0]!.fonts;
    expect(fonts.find((f) => f.name === 'Helvetica')).toMatchObject({
      encoding: 'Custom',
      to_unicode: false,
    });
    expect(reportOf('profiles/accessibility-untagged.pdf').pages[0]!.fonts[0]).toMatchObject({
      name: 'Helvetica',
      encoding: 'WinAnsiEncoding',
    });
  });

  it("a form field's fonts are those its appearance draws with, not the one /DA names for text not typed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ota-form-'));
    try {
      const withField = async (value: string | undefined) => {
        const doc = await PDFDocument.create();
        const page = doc.addPage([300, 200]);
        const field = doc.getForm().createTextField('name');
        if (value !== undefined) field.setText(value);
        field.addToPage(page, { x: 20, y: 100, width: 200, height: 30 });
        const file = path.join(dir, `${value ?? 'empty'}.pdf`);
        writeFileSync(file, await doc.save());
        return inProcessReport(pdfium, file).pages[0]!.fonts.map((f) => [
          f.name,
          f.embedded,
          (f as { used_for_rendering?: boolean }).used_for_rendering,
        ]);
      };
      // an empty field draws no text: Helvetica (the /DA font of its appearance's resources, not embedded),
      // listed as pdffonts lists it, is used for no rendering
      expect(await withField(undefined)).toEqual([['Helvetica', false, false]]);
      expect(await withField('Ada Lovelace')).toEqual([['Helvetica', false, true]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fonts as pdffonts lists them, each with whether text is drawn with it', () => {
  it("the page's fonts, then its forms': one not drawn with is listed, used for no rendering", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ota-fonts-'));
    try {
      const doc = await PDFDocument.create();
      const page = doc.addPage([300, 200]);
      const helvetica = await doc.embedFont(StandardFonts.Helvetica);
      const courier = await doc.embedFont(StandardFonts.Courier);
      const times = await doc.embedFont(StandardFonts.TimesRoman);
      page.drawText('drawn', { x: 20, y: 150, font: helvetica, size: 12 });
      page.node.setFontDictionary(PDFName.of('Unused'), courier.ref);
      const form = doc.context.register(
        doc.context.stream('BT /T 12 Tf 20 50 Td (in a form) Tj ET', {
          Type: 'XObject',
          Subtype: 'Form',
          BBox: [0, 0, 300, 200],
          Resources: { Font: { T: times.ref } },
        }),
      );
      page.node.setXObject(PDFName.of('X1'), form);
      page.pushOperators(pushGraphicsState(), drawObject('X1'), popGraphicsState());
      const file = path.join(dir, 'fonts.pdf');
      writeFileSync(file, await doc.save());
      const fonts = inProcessReport(pdfium, file).pages[0]!.fonts;
      // pdffonts: Helvetica, Courier, Times-Roman (page resources in order, then the form's)
      expect(
        fonts.map((f) => [f.name, f.embedded, (f as { used_for_rendering?: boolean }).used_for_rendering]),
      ).toEqual([
        ['Helvetica', false, true],
        ['Courier', false, false],
        ['Times-Roman', false, true],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const verdictOf = (file: string, profile: ProfileName, options: RunOptions = {}) =>
  judge(profile, reportOf(file), options, { printMinPpi: 300 });
const statuses = (file: string, profile: ProfileName, options: RunOptions = {}) =>
  Object.fromEntries(verdictOf(file, profile, options).checks.map((c) => [c.id, c.status]));

describe('pdf-print', () => {
  it('passes a CMYK PDF/X-3 with 320 ppi images, embedded fonts and 5 mm of bleed; the spot colour is a note', () => {
    const profile = verdictOf('profiles/print-pdfx3-cmyk-320ppi.pdf', 'pdf-print');
    expect(profile.verdict).toBe('pass');
    expect(statuses('profiles/print-pdfx3-cmyk-320ppi.pdf', 'pdf-print')).toEqual({
      pages_readable: 'pass',
      image_resolution_critical: 'pass',
      image_resolution: 'pass',
      fonts_embedded: 'pass',
      rgb_in_cmyk_job: 'pass',
      trim_and_bleed: 'pass',
      transparency: 'pass',
      spot_colors: 'fail',
    });
    expect(profile.checks.find((c) => c.id === 'spot_colors')).toMatchObject({
      severity: 'info',
      pages: [1],
      message: expect.stringMatching(/^Spot colours: PANTONE 021 C\. /),
    });
  });

  it('fails 100 ppi (error), warns at 200 ppi, an unembedded font, no TrimBox, transparency', () => {
    const file = 'profiles/print-rgb-lowres-unembedded.pdf';
    const profile = verdictOf(file, 'pdf-print');
    expect(profile.verdict).toBe('fail');
    expect(statuses(file, 'pdf-print')).toMatchObject({
      image_resolution_critical: 'fail',
      image_resolution: 'fail',
      fonts_embedded: 'fail',
      rgb_in_cmyk_job: 'not_applicable',
      trim_and_bleed: 'fail',
      transparency: 'fail',
      spot_colors: 'pass',
    });
    const critical = profile.checks.find((c) => c.id === 'image_resolution_critical')!;
    expect(critical).toMatchObject({ severity: 'error', pages: [1] });
    expect(critical.message).toContain('100x100 px at 100 ppi');
    expect(critical.message).not.toContain('200x200');
  });

  it('min_ppi moves both thresholds; cmyk: true makes RGB images a warning', () => {
    const file = 'profiles/print-rgb-lowres-unembedded.pdf';
    expect(statuses(file, 'pdf-print', { min_ppi: 150 })).toMatchObject({
      image_resolution_critical: 'pass',
      image_resolution: 'fail',
    });
    expect(statuses(file, 'pdf-print', { min_ppi: 100 })).toMatchObject({
      image_resolution_critical: 'pass',
      image_resolution: 'pass',
    });
    expect(statuses(file, 'pdf-print', { cmyk: true }).rgb_in_cmyk_job).toBe('fail');
    // an error-free run with warnings only passes
    const warned = verdictOf('profiles/print-bleed-1mm.pdf', 'pdf-print');
    expect(warned.verdict).toBe('pass');
    expect(warned.checks.find((c) => c.id === 'trim_and_bleed')).toMatchObject({
      status: 'fail',
      severity: 'warning',
    });
  });
});

describe('pdf-archive', () => {
  it('passes a Ghostscript PDF/A-2b, and says it checked requirements, not validity', () => {
    const profile = verdictOf('profiles/archive-pdfa2b-ghostscript.pdf', 'pdf-archive');
    expect(profile.title).toBe('PDF/A-2b requirements checked, as the file claims (not a PDF/A validation)');
    expect(profile.judged_as).toEqual({ part: 2, basis: 'claim', standard: 'ISO 19005-2' });
    expect(profile.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(profile.verdict).toBe('pass');
    expect(statuses('profiles/archive-pdfa2b-ghostscript.pdf', 'pdf-archive').no_transparency_part1).toBe(
      'not_applicable',
    );
  });

  it('fails JavaScript, an attachment, an unembedded font, no XMP, no trailer ID and device RGB with no output intent', () => {
    expect(verdictOf('profiles/archive-javascript-attachment.pdf', 'pdf-archive').verdict).toBe('fail');
    // the checks of today's ids where rules belong, then those of the rules' new ids; each a rule group
    expect(statuses('profiles/archive-javascript-attachment.pdf', 'pdf-archive')).toEqual({
      pages_readable: 'pass',
      fonts_embedded: 'fail',
      file_header: 'pass',
      not_encrypted: 'pass',
      trailer_id: 'fail',
      // a JavaScript action is one of the actions ISO 19005-2 6.5.1 does not permit
      forbidden_actions: 'fail',
      additional_actions: 'pass',
      output_intent: 'fail',
      // no output intent: no profile breaks its rules
      output_intent_profile: 'pass',
      blending_color_space: 'pass',
      blend_modes: 'pass',
      transfer_functions: 'pass',
      rendering_intents: 'pass',
      image_dictionaries: 'pass',
      form_xobjects: 'pass',
      halftones: 'pass',
      font_subsets: 'pass',
      annotation_types: 'pass',
      annotation_flags: 'pass',
      annotation_appearances: 'pass',
      no_javascript: 'fail',
      // PDF/A-2 allows PDF/A attachments: `embedded_pdfa` judges this one, which is not
      no_embedded_files: 'not_applicable',
      embedded_pdfa: 'fail',
      embedded_files: 'pass',
      xmp_info_agreement: 'not_applicable',
      object_syntax: 'pass',
      stream_syntax: 'pass',
      hex_strings: 'pass',
      implementation_limits: 'pass',
      lzw_filters: 'pass',
      permissions: 'pass',
      xmp_pdfa_claim: 'fail',
      xmp_properties: 'pass',
      xmp_extension_schemas: 'pass',
      xmp_metadata_stream: 'fail',
      xmp_packet: 'pass',
      no_transparency_part1: 'not_applicable',
      alternate_presentations: 'pass',
      composite_fonts: 'pass',
      content_operators: 'pass',
      content_resources: 'pass',
      document_requirements: 'pass',
      end_of_file: 'pass',
      external_streams: 'pass',
      font_dictionaries: 'pass',
      font_encodings: 'pass',
      font_glyphs: 'pass',
      font_widths: 'pass',
      form_field_actions: 'pass',
      icc_profiles: 'pass',
      jpeg2000_images: 'pass',
      need_appearances: 'pass',
      notdef_glyphs: 'pass',
      optional_content: 'pass',
      overprint_mode: 'pass',
      signatures: 'pass',
      spot_colors: 'pass',
      utf8_names: 'pass',
      xfa_forms: 'pass',
      xref_syntax: 'pass',
    });
  });

  it('a PDF/A-1b without transparency passes the check only PDF/A-1 files get', () => {
    expect(verdictOf('profiles/archive-pdfa1b-ghostscript.pdf', 'pdf-archive').verdict).toBe('pass');
    expect(statuses('profiles/archive-pdfa1b-ghostscript.pdf', 'pdf-archive').no_transparency_part1).toBe(
      'pass',
    );
  });

  it('fails transparency in a file that claims PDF/A-1, and encryption', () => {
    expect(statuses('profiles/archive-pdfa1-claim-transparency.pdf', 'pdf-archive')).toMatchObject({
      xmp_pdfa_claim: 'pass',
      output_intent: 'pass',
      fonts_embedded: 'pass',
      no_transparency_part1: 'fail',
    });
    expect(
      statuses('derived/owner-password-only__from-cups-filters-classified.pdf', 'pdf-archive').not_encrypted,
    ).toBe('fail');
  });
});

describe('pdf-accessibility', () => {
  it.each(['profiles/accessibility-tagged-alt-lang.pdf', 'profiles/libreoffice-tagged-alt.pdf'])(
    'passes %s on all but the XMP metadata it does not have (the PDF/UA claim in it): tagged, a language, a displayed title, alt text, Unicode text',
    (file) => {
      const profile = verdictOf(file, 'pdf-accessibility');
      expect(profile.checks.filter((c) => c.status !== 'pass').map((c) => c.id)).toEqual([
        'xmp_pdfua_claim',
        'metadata_stream',
      ]);
      expect(profile.verdict).toBe('fail');
    },
  );

  it('fails a figure without alt text, no language, a title not displayed, a scan, a font without Unicode', () => {
    const file = 'profiles/accessibility-tagged-no-alt-scan.pdf';
    expect(verdictOf(file, 'pdf-accessibility').verdict).toBe('fail');
    // every rule of ISO 14289-1 that the file breaks is listed, the missing identification among them
    expect(statuses(file, 'pdf-accessibility')).toEqual({
      pages_readable: 'pass',
      fonts_embedded: 'fail',
      cid_system_info: 'pass',
      cid_to_gid_map: 'pass',
      cmaps: 'pass',
      structure_nesting: 'pass',
      media_clips: 'pass',
      role_map: 'pass',
      note_ids: 'pass',
      unnumbered_headings: 'pass',
      truetype_encodings: 'pass',
      optional_content: 'pass',
      xobjects: 'pass',
      formulas_alt_text: 'pass',
      font_subsets: 'pass',
      xmp_pdfua_claim: 'fail',
      tagged: 'pass',
      suspects: 'pass',
      untagged_content: 'fail',
      tagged_artifacts: 'pass',
      structure_types: 'pass',
      language: 'fail',
      title_displayed: 'fail',
      figures_alt_text: 'fail',
      heading_nesting: 'pass',
      table_headers: 'pass',
      annotations_tagged: 'pass',
      annotation_descriptions: 'pass',
      tab_order: 'pass',
      form_field_descriptions: 'pass',
      unicode_text: 'fail',
      file_header: 'pass',
      metadata_stream: 'fail',
      structure_parents: 'pass',
      table_regularity: 'pass',
      embedded_file_specs: 'pass',
      xfa_forms: 'pass',
      permissions: 'pass',
      trapnet_annotations: 'pass',
      form_widgets: 'pass',
      link_descriptions: 'pass',
      printer_marks: 'pass',
      font_widths: 'pass',
      notdef_glyphs: 'pass',
      scanned_pages: 'fail',
    });
    const scanned = verdictOf(file, 'pdf-accessibility').checks.find((c) => c.id === 'scanned_pages')!;
    expect(scanned.pages).toEqual([2]);
    expect(statuses('profiles/libreoffice-tagged-no-alt.pdf', 'pdf-accessibility').figures_alt_text).toBe(
      'fail',
    );
  });

  it('two fonts of one name keep their own facts: the Type 0 one has its ToUnicode map', () => {
    const file = 'profiles/accessibility-same-name-fonts.pdf';
    const fonts = reportOf(file).pages[0]!.fonts;
    expect(fonts.map((f) => [f.name, f.to_unicode, f.encoding])).toEqual([
      ['Calibri', false, 'WinAnsiEncoding'],
      ['ABCDEF+Calibri', true, 'Identity-H'],
    ]);
    expect(statuses(file, 'pdf-accessibility').unicode_text).toBe('pass');
  });

  it('an untagged file fails `tagged` and `untagged_content`; it has no figure to fail', () => {
    expect(statuses('profiles/accessibility-untagged.pdf', 'pdf-accessibility')).toMatchObject({
      tagged: 'fail',
      untagged_content: 'fail',
      figures_alt_text: 'pass',
      unicode_text: 'pass',
    });
  });

  it('a page that could not be read fails every profile', () => {
    const report = reportOf('profiles/accessibility-tagged-alt-lang.pdf');
    const broken = {
      ...report,
      pages: [
        { ...report.pages[0]!, status: 'failed' as const, error: 'boom', boxes: null, fonts: [], images: [] },
      ],
    };
    for (const name of ['pdf-print', 'pdf-archive', 'pdf-accessibility'] as const) {
      const profile = judge(name, broken, {}, { printMinPpi: 300 });
      expect(profile.checks[0]).toMatchObject({ id: 'pages_readable', status: 'fail', pages: [1] });
      expect(profile.verdict).toBe('fail');
    }
  });
});

describe('real documents of the issue', () => {
  it('the Ghostscript manual: a subset simple Calibri keeps its own facts beside a Type 0 HTNHNK+Calibri (pdffonts -f 5 -l 5)', () => {
    const file = 'documents/ghostscript-doc__GS9_Color_Management-33p.pdf';
    const fonts = reportOf(file).pages[4]!.fonts.filter((f) => f.name.includes('Calibri'));
    expect(fonts.map((f) => [f.name, f.to_unicode, f.unicode_mapping]).sort()).toEqual([
      ['Calibri,Bold', false, 'standard_encoding'],
      ['Calibri', false, 'standard_encoding'],
      ['HTNHNK+Calibri', true, 'to_unicode'],
    ]);
  });

  it("pdfTeX's Latin Modern fonts map to Unicode by their glyph names, with no ToUnicode map", () => {
    const file = 'documents/ghostscript-doc__GS9_Color_Management-33p.pdf';
    const latinModern = reportOf(file)
      .pages.flatMap((p) => p.fonts)
      .filter((f) => f.name.startsWith('LM'));
    expect(latinModern.length).toBeGreaterThan(3);
    for (const font of latinModern)
      expect(font, font.name).toMatchObject({ to_unicode: false, unicode_mapping: 'glyph_names' });
  });
});
