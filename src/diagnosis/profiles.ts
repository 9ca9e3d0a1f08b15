import type { Schemas } from '../contract.js';
import type { RunOptions } from '../store/types.js';

/**
 * Preflight profiles, as Acrobat Preflight, callas pdfToolbox and veraPDF name them: a set of checks over the
 * report's facts, each with a severity, and a verdict that fails when a check of severity `error` fails.
 * Pure functions of the facts and the run's options.
 */

type Report = Schemas['PreflightReport'];
type Facts = Pick<Report, 'document' | 'pages'>;
export type Profile = Schemas['Profile'];
export type ProfileName = Profile['name'];
type Check = Profile['checks'][number];
/** A check as a profile's rule makes it; `judge` adds the clause its profile says it implements. */
type Draft = Omit<Check, 'clause'>;
type Severity = Check['severity'];
type PageReport = Report['pages'][number];

export const PROFILE_NAMES: readonly ProfileName[] = ['pdf-print', 'pdf-archive', 'pdf-accessibility'];

export interface ProfileSettings {
  /** `PRINT_MIN_PPI`: the resolution `pdf-print` asks of placed images when the run does not say. */
  printMinPpi: number;
}

/** Bleed a print shop wants beyond the trim on every side: 3 mm, in points. */
const MIN_BLEED_PT = (3 / 25.4) * 72;
const STANDARD_ENCODINGS = new Set([
  'WinAnsiEncoding',
  'MacRomanEncoding',
  'StandardEncoding',
  'PDFDocEncoding',
]);

const okPages = (facts: Facts) =>
  facts.pages.filter((p): p is PageReport & { status: 'ok' } => p.status === 'ok');

const pass = (id: string, severity: Severity, message: string): Draft => ({
  id,
  severity,
  status: 'pass',
  pages: [],
  message,
});
const fail = (id: string, severity: Severity, message: string, pages: number[] = []): Draft => ({
  id,
  severity,
  status: 'fail',
  pages,
  message,
});
const notApplicable = (id: string, severity: Severity, message: string): Draft => ({
  id,
  severity,
  status: 'not_applicable',
  pages: [],
  message,
});

/** A check over pages: it fails on the pages where `problem` names something, listing the first names. */
function pageCheck(
  facts: Facts,
  id: string,
  severity: Severity,
  problem: (page: PageReport & { status: 'ok' }) => string[],
  messages: { pass: string; fail: (subjects: string[]) => string },
): Draft {
  const pages: number[] = [];
  const subjects = new Set<string>();
  for (const page of okPages(facts)) {
    const found = problem(page);
    if (found.length === 0) continue;
    pages.push(page.page);
    for (const subject of found) subjects.add(subject);
  }
  if (pages.length === 0) return pass(id, severity, messages.pass);
  const names = [...subjects];
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return fail(id, severity, messages.fail(shown ? [shown] : []), pages);
}

/** A check of the whole document, severity error. */
const documentCheck = (id: string, ok: boolean, passed: string, failed: string): Draft =>
  ok ? pass(id, 'error', passed) : fail(id, 'error', failed);

function pagesReadable(facts: Facts): Draft {
  const failed = facts.pages.filter((p) => p.status === 'failed').map((p) => p.page);
  return failed.length === 0
    ? pass('pages_readable', 'error', 'Every page could be read')
    : fail('pages_readable', 'error', 'Pages could not be read, so they were not checked', failed);
}

const fontsEmbedded = (facts: Facts) =>
  pageCheck(facts, 'fonts_embedded', 'error', (p) => p.fonts.filter((f) => !f.embedded).map((f) => f.name), {
    pass: 'Every font is embedded',
    fail: ([names]) =>
      `Fonts not embedded: ${names}. Embed them when the PDF is made (or print it to PDF again)`,
  });

function printChecks(facts: Facts, options: RunOptions, settings: ProfileSettings): Draft[] {
  const minPpi = options.min_ppi ?? settings.printMinPpi;
  const doc = facts.document;
  const cmykJob = options.cmyk === true || doc.output_intents.some((intent) => intent.components === 4);
  // each image is judged once: under half of min_ppi it is the error's, between half and min_ppi the warning's
  const resolution = (id: string, severity: Severity, under: number, atLeast: number) => {
    const range = atLeast > 0 ? `from ${atLeast} to under ${under} ppi` : `under ${under} ppi`;
    return pageCheck(
      facts,
      id,
      severity,
      (p) =>
        p.images
          .filter((i) => i.dpi !== null && i.dpi < under && i.dpi >= atLeast)
          .map((i) => `${i.width_px}x${i.height_px} px at ${i.dpi} ppi`),
      {
        pass: `No image is placed ${range}`,
        fail: ([images]) => `Images placed ${range}: ${images}`,
      },
    );
  };
  const spots = doc.spot_colors;
  return [
    pagesReadable(facts),
    resolution('image_resolution_critical', 'error', minPpi / 2, 0),
    resolution('image_resolution', 'warning', minPpi, minPpi / 2),
    fontsEmbedded(facts),
    cmykJob
      ? pageCheck(
          facts,
          'rgb_in_cmyk_job',
          'warning',
          (p) =>
            p.images
              .filter(
                (i) =>
                  i.color_space === 'rgb' ||
                  i.color_space === 'lab' ||
                  (i.color_space === 'icc' && i.icc_components === 3),
              )
              .map((i) => `${i.color_space} ${i.width_px}x${i.height_px} px`),
          {
            pass: 'No RGB or Lab images in a CMYK job',
            fail: ([images]) => `RGB or Lab images in a CMYK job: ${images}`,
          },
        )
      : notApplicable(
          'rgb_in_cmyk_job',
          'warning',
          'The job is not CMYK (no CMYK output intent, no cmyk option)',
        ),
    pageCheck(
      facts,
      'trim_and_bleed',
      'warning',
      (p) => {
        const { crop, trim, bleed } = p.boxes!;
        if (trim.every((v, i) => v === crop[i])) return ['no TrimBox'];
        const [t0, t1, t2, t3] = trim as [number, number, number, number];
        const [b0, b1, b2, b3] = bleed as [number, number, number, number];
        const margins = [t0 - b0, t1 - b1, b2 - t2, b3 - t3];
        return margins.some((m) => m < MIN_BLEED_PT - 0.01)
          ? ['BleedBox less than 3 mm beyond the TrimBox']
          : [];
      },
      {
        pass: 'Every page has a TrimBox with 3 mm of bleed around it',
        fail: ([problems]) => `Pages without print boxes: ${problems}`,
      },
    ),
    pageCheck(facts, 'transparency', 'info', (p) => (p.transparency ? ['transparency'] : []), {
      pass: 'No transparency',
      fail: () => 'Pages use transparency (soft masks, blend modes or alpha): flattening may change them',
    }),
    spots.length === 0
      ? pass('spot_colors', 'info', 'No spot colours')
      : fail(
          'spot_colors',
          'info',
          `Spot colours: ${spots.join(', ')}`,
          okPages(facts)
            .filter((p) => p.spot_colors.length > 0)
            .map((p) => p.page),
        ),
  ];
}

function archiveChecks(facts: Facts): Draft[] {
  const doc = facts.document;
  const claimsPart1 = doc.pdfa?.startsWith('1') ?? false;
  return [
    pagesReadable(facts),
    fontsEmbedded(facts),
    documentCheck(
      'not_encrypted',
      !doc.encrypted,
      'The file is not encrypted',
      'The file is encrypted: save it without a password or permissions',
    ),
    documentCheck(
      'no_javascript',
      !doc.javascript,
      'No JavaScript',
      'The file contains JavaScript (document scripts or JavaScript actions): remove it',
    ),
    documentCheck(
      'no_embedded_files',
      doc.embedded_files === 0,
      'No embedded files',
      `The file embeds ${doc.embedded_files} file(s); PDF/A-2 allows only PDF/A ones, which is not checked here: remove them or make sure they are PDF/A`,
    ),
    documentCheck(
      'xmp_pdfa_claim',
      doc.xmp_metadata && doc.pdfa !== null,
      `XMP metadata claims PDF/A-${doc.pdfa}`,
      doc.xmp_metadata
        ? 'The XMP metadata has no valid PDF/A identification: add pdfaid:part and pdfaid:conformance in the namespace http://www.aiim.org/pdfa/ns/id/'
        : 'The file has no XMP metadata: add it, with the PDF/A identification (pdfaid:part, pdfaid:conformance)',
    ),
    documentCheck(
      'output_intent',
      doc.output_intents.length > 0,
      'The file has an output intent',
      'The file has no output intent: add one (GTS_PDFA1 with an ICC profile) for its device colour',
    ),
    claimsPart1
      ? pageCheck(facts, 'no_transparency_part1', 'error', (p) => (p.transparency ? ['transparency'] : []), {
          pass: 'No transparency, as PDF/A-1 requires',
          fail: () => 'PDF/A-1 forbids transparency, and these pages use it: flatten it, or claim PDF/A-2',
        })
      : notApplicable('no_transparency_part1', 'error', 'The file does not claim PDF/A-1'),
  ];
}

/**
 * A well-formed BCP 47 language tag (RFC 5646, section 2.1): language (with extended subtags), script,
 * region, variants, extensions and private use, or a private-use or grandfathered tag.
 */
const BCP47 = new RegExp(
  '^(?:(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?' +
    '(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?' +
    '|x(?:-[a-z0-9]{1,8})+' +
    '|en-gb-oed|i-(?:ami|bnn|default|enochian|hak|klingon|lux|mingo|navajo|pwn|tao|tay|tsu)' +
    '|sgn-(?:be-fr|be-nl|ch-de)|art-lojban|cel-gaulish|no-bok|no-nyn|zh-(?:guoyu|hakka|min|min-nan|xiang))$',
  'i',
);

export const isLanguageTag = (tag: string): boolean => BCP47.test(tag.trim());

/**
 * PDF/UA-1 7.2: the natural language of the text is known, from the catalog's /Lang or from a /Lang on the
 * structure elements (or their ancestors) that hold it; every /Lang set must be a BCP 47 tag.
 */
function languageCheck(doc: Facts['document']): Draft {
  const bad = [doc.language, ...doc.struct_languages].filter(
    (tag): tag is string => tag !== null && !isLanguageTag(tag),
  );
  if (bad.length > 0)
    return fail(
      'language',
      'error',
      `Languages that are not BCP 47 tags: ${bad
        .slice(0, 5)
        .map((t) => `"${t}"`)
        .join(', ')}: use tags such as en-US`,
    );
  if (doc.language !== null) return pass('language', 'error', `The language is ${doc.language}`);
  if (doc.struct_content > 0 && doc.struct_content_without_language === 0)
    return pass(
      'language',
      'error',
      `The structure elements declare the language (${doc.struct_languages.join(', ')})`,
    );
  return fail(
    'language',
    'error',
    doc.struct_content_without_language > 0 && doc.struct_languages.length > 0
      ? `${doc.struct_content_without_language} pieces of tagged content have no language and the catalog declares none: set the catalog's /Lang to a BCP 47 tag such as en-US`
      : "The document declares no language: set the catalog's /Lang to a BCP 47 tag such as en-US",
  );
}

function accessibilityChecks(facts: Facts): Draft[] {
  const doc = facts.document;
  const figures = doc.struct_figures;
  const title = doc.xmp_title ?? doc.title;
  return [
    pagesReadable(facts),
    fontsEmbedded(facts),
    documentCheck(
      'tagged',
      doc.tagged,
      'The PDF is tagged',
      'The PDF is not tagged (no marked structure tree): make it with tags, or tag it in an editor',
    ),
    languageCheck(doc),
    documentCheck(
      'title_displayed',
      title !== null && doc.display_doc_title,
      'The title is shown as the window title',
      title === null
        ? 'The document has no title: give it one (XMP dc:title) and set /DisplayDocTitle true'
        : 'The title is not shown as the window title: set /ViewerPreferences /DisplayDocTitle true',
    ),
    !doc.tagged && figures === 0
      ? notApplicable('figures_alt_text', 'error', 'No structure tree to hold figures')
      : documentCheck(
          'figures_alt_text',
          doc.struct_figures_without_alt === 0,
          `Every figure (${figures}) has alternate text`,
          `${doc.struct_figures_without_alt} of ${figures} figures have no alternate text: give each an /Alt`,
        ),
    pageCheck(
      facts,
      'unicode_text',
      'error',
      (p) =>
        p.fonts
          .filter((f) => !f.to_unicode && !(f.encoding !== null && STANDARD_ENCODINGS.has(f.encoding)))
          .map((f) => f.name),
      {
        pass: 'Text can be extracted as Unicode',
        fail: ([names]) =>
          `Fonts with neither a ToUnicode map nor a standard encoding: ${names}. Make the PDF with ToUnicode maps`,
      },
    ),
    pageCheck(facts, 'scanned_pages', 'error', (p) => (!p.has_text && p.images.length > 0 ? ['scan'] : []), {
      pass: 'No page is an image without text',
      fail: () => 'Pages are images with no text: run OCR on them',
    }),
  ];
}

/**
 * The clause of the standard each check implements (ISO 19005-2 for pdf-archive, but ISO 19005-1 for the
 * PDF/A-1-only rule; ISO 14289-1 for pdf-accessibility); checks no clause states have none.
 */
const CLAUSES: Record<ProfileName, Readonly<Record<string, string>>> = {
  'pdf-print': {},
  'pdf-archive': {
    fonts_embedded: '6.2.11.4.1',
    not_encrypted: '6.1.3',
    no_javascript: '6.6.1',
    no_embedded_files: '6.8',
    xmp_pdfa_claim: '6.6.4',
    output_intent: '6.2.4.3',
    no_transparency_part1: '6.4',
  },
  'pdf-accessibility': {
    fonts_embedded: '7.21.4.1',
    tagged: '7.1',
    language: '7.2',
    title_displayed: '7.1',
    figures_alt_text: '7.3',
    unicode_text: '7.21.7',
  },
};

const TITLES: Record<ProfileName, string> = {
  'pdf-print': 'Print production checks',
  'pdf-archive': 'PDF/A-2b requirements checked (not a PDF/A validation)',
  'pdf-accessibility': 'Accessibility checks (PDF/UA and EAA basics)',
};

export function judge(
  name: ProfileName,
  facts: Facts,
  options: RunOptions,
  settings: ProfileSettings,
): Profile {
  const drafts =
    name === 'pdf-print'
      ? printChecks(facts, options, settings)
      : name === 'pdf-archive'
        ? archiveChecks(facts)
        : accessibilityChecks(facts);
  const checks: Check[] = drafts.map((draft) => ({ ...draft, clause: CLAUSES[name][draft.id] ?? null }));
  const failed = checks.some((c) => c.status === 'fail' && c.severity === 'error');
  return { name, title: TITLES[name], verdict: failed ? 'fail' : 'pass', checks };
}

export const isProfile = (target: string): target is ProfileName =>
  (PROFILE_NAMES as readonly string[]).includes(target);
