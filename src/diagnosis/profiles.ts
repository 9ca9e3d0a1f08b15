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
/**
 * A check as a profile's rule makes it; `judge` adds the clause its profile says it implements, unless the
 * rule names one (a clause that depends on the part of the standard the file is judged by).
 */
type Draft = Omit<Check, 'clause'> & { clause?: string };
type Severity = Check['severity'];
type PageReport = Report['pages'][number];

export const PROFILE_NAMES: readonly ProfileName[] = ['pdf-print', 'pdf-archive', 'pdf-accessibility'];

export interface ProfileSettings {
  /** `PRINT_MIN_PPI`: the resolution `pdf-print` asks of placed images when the run does not say. */
  printMinPpi: number;
}

/** Bleed a print shop wants beyond the trim on every side: 3 mm, in points. */
const MIN_BLEED_PT = (3 / 25.4) * 72;

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

/** What a list of names looks like in a message: the first five, and how many more. */
const listed = (names: readonly string[]) =>
  names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

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
  const shown = listed([...subjects]);
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

/** Actions PDF/A-2 forbids (ISO 19005-2, 6.5.1); JavaScript is `no_javascript`'s. Named actions go by name. */
const FORBIDDEN_ACTIONS = new Set([
  ...['Launch', 'Sound', 'Movie', 'ResetForm', 'ImportData', 'Hide', 'SetOCGState', 'Rendition'],
  ...['Trans', 'GoTo3DView'],
]);
const ALLOWED_NAMED_ACTIONS = new Set(['NextPage', 'PrevPage', 'FirstPage', 'LastPage']);
/** The blend modes ISO 32000-1 (11.3.5) defines, the only ones PDF/A-2 (6.2.10) allows. */
const STANDARD_BLEND_MODES = new Set([
  ...['Normal', 'Compatible', 'Multiply', 'Screen', 'Overlay', 'Darken', 'Lighten', 'ColorDodge'],
  ...['ColorBurn', 'HardLight', 'SoftLight', 'Difference', 'Exclusion', 'Hue', 'Saturation', 'Color'],
  'Luminosity',
]);
/** Annotation types of ISO 32000-1 (12.5.6) that PDF/A-2 (6.3.1) permits: all but 3D, Sound, Screen and Movie. */
const PERMITTED_ANNOTATIONS = new Set([
  ...['Text', 'Link', 'FreeText', 'Line', 'Square', 'Circle', 'Polygon', 'PolyLine', 'Highlight'],
  ...['Underline', 'Squiggly', 'StrikeOut', 'Stamp', 'Caret', 'Ink', 'Popup', 'FileAttachment'],
  ...['Widget', 'PrinterMark', 'TrapNet', 'Watermark', 'Redact'],
]);
/** The rendering intents ISO 32000-1 (8.6.5.8) defines, the only ones PDF/A-2 (6.2.6) allows. */
const STANDARD_INTENTS = new Set([
  'RelativeColorimetric',
  'AbsoluteColorimetric',
  'Perceptual',
  'Saturation',
]);
const FLAG_INVISIBLE = 1;
const FLAG_HIDDEN = 2;
const FLAG_PRINT = 4;
const FLAG_NOVIEW = 32;
const FLAG_TOGGLE_NOVIEW = 256;

type Annotation = PageReport['annotation_details'][number];
type OutputIntent = Facts['document']['output_intents'][number];

/** The PDF/A output intents (`/S /GTS_PDFA1`): a PDF/X one says nothing of PDF/A. */
const pdfaIntents = (facts: Facts) =>
  facts.document.output_intents.filter((intent) => intent.subtype === 'GTS_PDFA1');

/** An output intent's colour space: its ICC profile header's, else told by its number of components. */
function intentColorSpace(intent: OutputIntent): string | null {
  if (intent.profile_color_space !== null) return intent.profile_color_space;
  return intent.components === 1
    ? 'GRAY'
    : intent.components === 3
      ? 'RGB'
      : intent.components === 4
        ? 'CMYK'
        : null;
}

/**
 * ISO 19005-2, 6.2.4.3: DeviceRGB only under an RGB PDF/A output intent, DeviceCMYK only under a CMYK one,
 * DeviceGray under any; without one, no device colour at all (unless a Default colour space replaces it).
 */
function deviceColorCheck(facts: Facts): Draft {
  const intents = pdfaIntents(facts);
  const space = intents.length > 0 ? intentColorSpace(intents[0]!) : null;
  const covered = coveredByIntent(facts);
  return pageCheck(facts, 'output_intent', 'error', (p) => p.device_colors.filter((d) => !covered(d)), {
    pass:
      intents.length > 0
        ? `Device colour agrees with the ${space ?? ''} output intent`.replace('  ', ' ')
        : 'No device colour, so no output intent is needed',
    fail: ([devices]) =>
      intents.length > 0
        ? `Device colour (${devices}) that the ${space ?? 'unknown'} output intent does not cover: convert it to the output intent's colour space or to ICC-based colour`
        : `Device colour (${devices}) with no PDF/A output intent: add a GTS_PDFA1 output intent with an ICC profile, or use ICC-based colour`,
  });
}

/** The device colour the file's PDF/A output intent covers: as `deviceColorCheck` says; none without one. */
function coveredByIntent(facts: Facts): (device: string) => boolean {
  const intents = pdfaIntents(facts);
  const space = intents.length > 0 ? intentColorSpace(intents[0]!) : null;
  return (device) =>
    intents.length > 0 && (device === 'gray' || (device === 'rgb' ? space === 'RGB' : space === 'CMYK'));
}

/**
 * ISO 19005-2, 6.1.2: `%PDF-1.0` to `%PDF-1.7` at byte 0, one end-of-line marker, then a comment of four bytes
 * above 127. ISO 19005-1, 6.1.2, for a file that claims part 1: any `%PDF-n.n`, the markers not counted.
 */
function fileHeaderCheck(facts: Facts, claimsPart1: boolean): Draft {
  const header = facts.document.file_header;
  if (!header) return notApplicable('file_header', 'error', 'The file could not be read');
  const problems: string[] = [];
  if (!header.at_start) problems.push('does not begin at byte 0');
  else if (!(claimsPart1 ? /^\d\.\d$/ : /^1\.[0-7]$/).test(header.version ?? ''))
    problems.push(`names version "${header.version ?? ''}", not ${claimsPart1 ? 'n.n' : '1.0 to 1.7'}`);
  if (!claimsPart1 && header.at_start && !header.single_eol)
    problems.push('is not followed by exactly one end-of-line marker');
  if (!header.binary_comment)
    problems.push('is not followed by a comment line whose first four bytes are above 127');
  return documentCheck(
    'file_header',
    problems.length === 0,
    'The file header is as PDF/A asks',
    `The file header ${problems.join('; it ')}: save the file again with a PDF/A writer`,
  );
}

/**
 * ISO 19005-2, 6.2.10: a transparency group's device blending colour space is one the output intent covers,
 * as device colour is; without an intent, a page with transparency names its blending colour space.
 */
function blendingColorSpaceCheck(facts: Facts): Draft {
  const covered = coveredByIntent(facts);
  const withIntent = pdfaIntents(facts).length > 0;
  return pageCheck(
    facts,
    'blending_color_space',
    'error',
    (p) => {
      const uncovered = (p.group_device_colors ?? []).filter((d) => !covered(d));
      if (uncovered.length > 0) return [`${uncovered.join(', ')} on page ${p.page}`];
      return !withIntent && p.transparency && !p.group_color_space ? [`page ${p.page}`] : [];
    },
    {
      pass: withIntent
        ? 'Every device blending colour space agrees with the PDF/A output intent'
        : 'Every page with transparency names its blending colour space',
      fail: () =>
        withIntent
          ? "A transparency group blends in a device colour space the PDF/A output intent does not cover: give it an ICC-based /CS, or the output intent's colour space"
          : 'Transparency with a device blending colour space, or with none, and no PDF/A output intent: give each transparency group an ICC-based /CS, or add a GTS_PDFA1 output intent',
    },
  );
}

/** ISO 19005-2, 6.2.3: a PDF/A output intent's profile is an output or display profile of a process space. */
function outputIntentProfileCheck(facts: Facts): Draft {
  const intents = pdfaIntents(facts);
  if (intents.length === 0)
    return notApplicable('output_intent_profile', 'error', 'The file has no PDF/A output intent');
  const problems = intents.flatMap((intent) => {
    if (intent.profile_class === null) return ['an output intent without a readable ICC profile'];
    const found: string[] = [];
    if (intent.profile_class !== 'prtr' && intent.profile_class !== 'mntr')
      found.push(`a profile of device class "${intent.profile_class}"`);
    if (!['RGB', 'CMYK', 'GRAY'].includes(intent.profile_color_space ?? ''))
      found.push(`a profile of colour space "${intent.profile_color_space ?? ''}"`);
    return found;
  });
  return problems.length === 0
    ? pass('output_intent_profile', 'error', 'The output intent has an output or display ICC profile')
    : fail(
        'output_intent_profile',
        'error',
        `The PDF/A output intent has ${listed(problems)}: use an output (prtr) or display (mntr) profile of RGB, CMYK or gray`,
      );
}

type ClauseFinding = NonNullable<Facts['document']['object_findings']>[number];

/**
 * A check of the findings the reader made for one clause of the part the file is judged by: it fails with
 * the first of them. A clause the part does not have makes the check not applicable.
 */
function clauseCheck(
  findings: readonly ClauseFinding[] | undefined,
  id: string,
  part: 1 | 2,
  clauses: Partial<Record<1 | 2, string>>,
  messages: { pass: string; fix: string; notApplicable?: string; subject?: string },
): Draft {
  const clause = clauses[part];
  if (!clause) return notApplicable(id, 'error', messages.notApplicable ?? 'Not a rule of this part');
  const found = (findings ?? []).filter((f) => f.part === part && f.clause === clause);
  const problems = `${listed(found.map((f) => f.message))}: ${messages.fix}`;
  const draft =
    found.length === 0
      ? pass(id, 'error', messages.pass)
      : fail(
          id,
          'error',
          messages.subject ? `Problems of ${messages.subject}: ${problems}` : capitalized(problems),
        );
  return { ...draft, clause };
}

/**
 * ISO 19005-2 6.2.8.1 (ISO 19005-1 6.2.4): no image asks to be interpolated (image dictionaries and inline
 * images, as the pages read them) and no image dictionary has Alternates, OPI or a non-standard intent.
 */
function imageDictionariesCheck(facts: Facts, part: 1 | 2): Draft {
  const interpolated = okPages(facts).reduce((sum, p) => sum + p.interpolated_images, 0);
  const findings = [
    ...syntaxFindings(facts),
    ...(interpolated > 0
      ? [1, 2].map((p) => ({
          part: p,
          clause: p === 1 ? '6.2.4' : '6.2.8.1',
          message: `${interpolated} images placed on the pages ask to be interpolated`,
        }))
      : []),
  ];
  return clauseCheck(
    findings,
    'image_dictionaries',
    part,
    { 1: '6.2.4', 2: '6.2.8.1' },
    {
      pass: 'No image is interpolated or has alternates, OPI or a non-standard rendering intent',
      fix: 'set /Interpolate false, and remove /Alternates and /OPI from images',
    },
  );
}

const REWRITE = 'save the file again with a PDF/A writer';

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The metadata clauses of the part the file is judged by (ISO 19005-1 6.7.2, 6.7.8 and 6.7.3, ISO 19005-2
 * 6.6.2.3.1 and 6.6.2.3.3): the findings the reader made of the XMP packet (`document.metadata_findings`).
 */
function metadataChecks(facts: Facts, part: 1 | 2): Draft[] {
  const findings = facts.document.metadata_findings;
  return [
    clauseCheck(
      findings,
      'xmp_properties',
      part,
      { 1: '6.7.2', 2: '6.6.2.3.1' },
      {
        pass: `Every XMP property is of a schema PDF/A-${part} knows or describes, with its type`,
        fix: "write each value in its schema's type, and describe any other schema in a PDF/A extension schema",
        subject: 'XMP properties',
      },
    ),
    clauseCheck(
      findings,
      'xmp_extension_schemas',
      part,
      { 1: '6.7.8', 2: '6.6.2.3.3' },
      {
        pass: 'The extension schemas are written as PDF/A asks',
        fix: 'write each extension schema with the pdfaExtension, pdfaSchema, pdfaProperty, pdfaType and pdfaField structures, their prefixes and required fields',
        subject: 'extension schemas',
      },
    ),
    clauseCheck(
      findings,
      'xmp_info_agreement',
      part,
      { 1: '6.7.3' },
      {
        pass: 'The document information dictionary agrees with the XMP metadata',
        fix: 'write the same values in both (or drop the Info entries)',
        notApplicable: 'PDF/A-2 and -3 do not ask the information dictionary to agree with the XMP',
      },
    ),
  ];
}

/** What the reader found against ISO 19005 object by object and in the pages' content streams. */
const syntaxFindings = (facts: Facts): ClauseFinding[] => [
  ...(facts.document.object_findings ?? []),
  ...okPages(facts).flatMap((p) => p.content_findings ?? []),
];

/** ISO 19005's clauses read object by object (`document.object_findings`) and in content streams. */
function objectChecks(facts: Facts, part: 1 | 2): Draft[] {
  const findings = syntaxFindings(facts);
  return [
    clauseCheck(
      findings,
      'object_syntax',
      part,
      { 1: '6.1.8', 2: '6.1.9' },
      {
        pass: 'Every object starts and ends on its own line, with single spaces in its header',
        fix: REWRITE,
      },
    ),
    clauseCheck(
      findings,
      'stream_syntax',
      part,
      { 1: '6.1.7', 2: '6.1.7.1' },
      {
        pass: 'Every stream keyword ends its line and every stream Length is exact',
        fix: REWRITE,
      },
    ),
    clauseCheck(
      findings,
      'hex_strings',
      part,
      { 1: '6.1.6', 2: '6.1.6' },
      {
        pass: 'Every hexadecimal string holds whole bytes of hex digits',
        fix: REWRITE,
      },
    ),
    clauseCheck(
      findings,
      'implementation_limits',
      part,
      { 1: '6.1.12', 2: '6.1.13' },
      {
        pass: `Numbers, strings, names, arrays, dictionaries and page boundaries are within PDF/A-${part}'s limits`,
        fix: 'keep integers within 32 bits, page boundaries within 3 to 14,400 units, and other values within the limits of the part',
      },
    ),
    clauseCheck(
      findings,
      'lzw_filters',
      part,
      { 1: '6.1.10', 2: '6.1.7.2' },
      {
        pass: 'No stream is coded with LZW',
        fix: 'code these streams with Flate instead',
      },
    ),
    clauseCheck(
      findings,
      'form_xobjects',
      part,
      { 1: '6.2.5', 2: '6.2.9.1' },
      {
        pass: 'No PostScript XObject and no form XObject with PS or OPI',
        fix: 'remove the PostScript and the /PS and /OPI entries',
      },
    ),
    clauseCheck(
      findings,
      'halftones',
      part,
      { 2: '6.2.5' },
      {
        pass: 'Every halftone is of type 1 or 5, without a HalftoneName',
        fix: 'use halftones of type 1 or 5 and remove /HalftoneName',
        notApplicable: 'PDF/A-1 has no rule for halftone names and types',
      },
    ),
    clauseCheck(
      findings,
      'font_subsets',
      part,
      { 1: '6.3.5', 2: '6.2.11.4.2' },
      {
        pass:
          part === 1
            ? 'Every embedded font subset lists its glyphs (CharSet) or CIDs (CIDSet), and every CIDSet is complete'
            : 'Every CIDSet lists every CID of its font program',
        fix: 'embed the fonts again with a complete CharSet or CIDSet (or none, in PDF/A-2)',
      },
    ),
    clauseCheck(
      findings,
      'permissions',
      part,
      { 2: '6.1.12' },
      {
        pass: 'No permissions other than UR3 and DocMDP',
        fix: 'remove them',
        notApplicable: 'PDF/A-1 has no rule for a permissions dictionary',
      },
    ),
  ];
}

/** A check over the pages' annotations: `problem` names what is wrong with one, or nothing. */
const annotationCheck = (
  facts: Facts,
  id: string,
  problem: (annotation: Annotation) => string | undefined,
  messages: { pass: string; fail: (subjects: string[]) => string },
) =>
  pageCheck(
    facts,
    id,
    'error',
    (p) => p.annotation_details.map(problem).filter((found): found is string => found !== undefined),
    messages,
  );

function archiveChecks(facts: Facts, judged: JudgedPart): Draft[] {
  const doc = facts.document;
  const claimsPart1 = judged.part === 1;
  const part = claimsPart1 ? 1 : 2;
  const forbidden = doc.actions.filter((action) =>
    action.startsWith('Named/')
      ? !ALLOWED_NAMED_ACTIONS.has(action.slice('Named/'.length))
      : FORBIDDEN_ACTIONS.has(action),
  );
  return [
    pagesReadable(facts),
    fontsEmbedded(facts),
    fileHeaderCheck(facts, claimsPart1),
    documentCheck(
      'not_encrypted',
      !doc.encrypted,
      'The file is not encrypted',
      'The file is encrypted: save it without a password or permissions',
    ),
    documentCheck(
      'trailer_id',
      doc.trailer_id,
      'The file trailer has an ID',
      'The file trailer has no /ID: save the file again with a PDF/A writer (it adds the two file identifiers)',
    ),
    documentCheck(
      'forbidden_actions',
      forbidden.length === 0,
      'No action PDF/A forbids',
      `Actions PDF/A forbids: ${listed(forbidden)}: remove them (links may go to pages and URIs; named actions only to the next, previous, first and last page)`,
    ),
    documentCheck(
      'additional_actions',
      doc.additional_actions.length === 0,
      'No additional actions (/AA)',
      `Additional actions (/AA) on the ${doc.additional_actions.join(', ')}: remove them (PDF/A runs no action on events)`,
    ),
    deviceColorCheck(facts),
    outputIntentProfileCheck(facts),
    blendingColorSpaceCheck(facts),
    pageCheck(
      facts,
      'blend_modes',
      'error',
      (p) => p.blend_modes.filter((mode) => !STANDARD_BLEND_MODES.has(mode)),
      {
        pass: 'Only standard blend modes',
        fail: ([modes]) =>
          `Blend modes PDF does not define: ${modes}: use a standard one (Normal, Multiply, ...)`,
      },
    ),
    pageCheck(
      facts,
      'transfer_functions',
      'error',
      (p) => (p.transfer_functions ? ['a transfer function'] : []),
      {
        pass: 'No transfer functions',
        fail: () =>
          'Graphics states set transfer functions (/TR, or /TR2 other than /Default), which PDF/A forbids: remove them',
      },
    ),
    pageCheck(
      facts,
      'rendering_intents',
      'error',
      (p) => p.rendering_intents.filter((intent) => !STANDARD_INTENTS.has(intent)),
      {
        pass: 'Only standard rendering intents',
        fail: ([intents]) =>
          `Rendering intents PDF does not define: ${intents}: use RelativeColorimetric, AbsoluteColorimetric, Perceptual or Saturation`,
      },
    ),
    imageDictionariesCheck(facts, part),
    annotationCheck(
      facts,
      'annotation_types',
      (a) => (PERMITTED_ANNOTATIONS.has(a.subtype) ? undefined : a.subtype),
      {
        pass: 'Only annotation types PDF/A permits',
        fail: ([types]) =>
          `Annotations PDF/A forbids (3D, sound, screen, movie or unknown): ${types}: remove them`,
      },
    ),
    annotationCheck(
      facts,
      'annotation_flags',
      (a) => {
        if (a.subtype === 'Popup') return undefined;
        if (a.flags === null) return `${a.subtype} without flags`;
        if ((a.flags & FLAG_PRINT) === 0) return `${a.subtype} not printed`;
        const hiding = FLAG_INVISIBLE | FLAG_HIDDEN | FLAG_NOVIEW | FLAG_TOGGLE_NOVIEW;
        return (a.flags & hiding) !== 0 ? `${a.subtype} hidden` : undefined;
      },
      {
        pass: 'Every annotation prints and is visible',
        fail: ([problems]) =>
          `Annotations that do not print or are hidden: ${problems}: set their Print flag and clear Hidden, Invisible, NoView and ToggleNoView`,
      },
    ),
    annotationCheck(
      facts,
      'annotation_appearances',
      (a) => {
        if (a.subtype === 'Popup') return undefined;
        if (a.appearance.length === 0)
          return a.subtype === 'Link' || a.zero_size ? undefined : `${a.subtype} without appearance`;
        return a.appearance.some((key) => key !== 'N')
          ? `${a.subtype} with ${a.appearance.join('/')} appearances`
          : undefined;
      },
      {
        pass: 'Every annotation has a normal appearance and no other',
        fail: ([problems]) =>
          `Annotations whose look is not fixed: ${problems}: give each a normal appearance (/AP /N) and no rollover or down appearance`,
      },
    ),
    documentCheck(
      'no_javascript',
      !doc.javascript,
      'No JavaScript',
      'The file contains JavaScript (document scripts or JavaScript actions): remove it',
    ),
    judged.part === 3
      ? notApplicable('no_embedded_files', 'error', 'PDF/A-3 allows embedded files of any kind')
      : documentCheck(
          'no_embedded_files',
          doc.embedded_files === 0,
          'No embedded files',
          judged.part === 1
            ? `The file embeds ${doc.embedded_files} file(s), which PDF/A-1 forbids: remove them`
            : `The file embeds ${doc.embedded_files} file(s); PDF/A-2 allows only PDF/A ones, which is not checked here: remove them or make sure they are PDF/A`,
        ),
    documentCheck(
      'xmp_pdfa_claim',
      doc.xmp_metadata && doc.pdfa !== null,
      `XMP metadata claims PDF/A-${doc.pdfa}`,
      doc.xmp_metadata
        ? 'The XMP metadata has no valid PDF/A identification: add pdfaid:part and pdfaid:conformance in the namespace http://www.aiim.org/pdfa/ns/id/'
        : 'The file has no XMP metadata: add it, with the PDF/A identification (pdfaid:part, pdfaid:conformance)',
    ),
    ...objectChecks(facts, part),
    ...metadataChecks(facts, part),
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

/** A check of the findings the reader made for one clause of ISO 14289-1: it fails with all of them. */
function uaClauseCheck(
  doc: Facts['document'],
  id: string,
  clause: string,
  passed: string,
  fix: string,
): Draft {
  const found = (doc.ua_findings ?? []).filter((f) => f.clause === clause);
  return found.length === 0
    ? pass(id, 'error', passed)
    : fail(id, 'error', `${capitalized(listed(found.map((f) => f.message)))}: ${fix}`);
}

/**
 * ISO 14289-1's clauses read object by object (`document.ua_findings`): the composite fonts' CIDSystemInfo,
 * CIDToGIDMap and CMaps (7.21.3), the glyphs a CIDSet or CharSet lists (7.21.4.2), non-symbolic TrueType
 * fonts' encodings (7.21.6), the nesting of tables, lists and tables of contents (7.2), unnumbered headings
 * (7.4.4), standard types remapped (7.1), notes' IDs (7.9), media clips (7.18.6.2), optional content
 * configurations (7.10), reference and PostScript XObjects (7.20), and formulas' alternate text (7.7).
 */
function uaFindingChecks(doc: Facts['document']): Draft[] {
  const rule = (id: string, clause: string, passed: string, fix: string) =>
    uaClauseCheck(doc, id, clause, passed, fix);
  return [
    rule(
      'cid_system_info',
      '7.21.3.1',
      "Every composite font's CIDFont and CMap name the same character collection",
      "give the CIDFont and the CMap the same Registry and Ordering, and the CIDFont a Supplement no later than the CMap's",
    ),
    rule(
      'cid_to_gid_map',
      '7.21.3.2',
      'Every embedded TrueType CIDFont maps its CIDs to glyphs',
      'set /CIDToGIDMap to /Identity or to a stream that maps the CIDs',
    ),
    rule(
      'cmaps',
      '7.21.3.3',
      'Every CMap is Identity-H, Identity-V or embedded, as its program says',
      'embed the CMap (or use Identity-H), and write the /WMode its program defines',
    ),
    rule(
      'structure_nesting',
      '7.2',
      'Tables, lists and tables of contents are structured as ISO 32000-1 says',
      'put TR in Table, THead, TBody or TFoot, TH and TD in TR, LI (Lbl, LBody) in L, TOCI in TOC, and nothing else in them; give every row of a table the same number of columns, spans counted',
    ),
    rule(
      'media_clips',
      '7.18.6.2',
      'Every media clip names its content type and describes itself',
      'give each media clip data dictionary a /CT and an /Alt with a description',
    ),
    rule(
      'role_map',
      '7.1',
      'The role map leaves the standard structure types as they are',
      'remove the standard types from /RoleMap: map only your own types, to standard ones',
    ),
    rule('note_ids', '7.9', 'Every Note has an ID of its own', 'give each Note element a unique /ID'),
    rule(
      'unnumbered_headings',
      '7.4.4',
      'Unnumbered headings (H) are used one per element, and not beside numbered ones',
      'give each section its own H, or use numbered headings (H1 to H6) throughout',
    ),
    rule(
      'truetype_encodings',
      '7.21.6',
      'Every non-symbolic TrueType font is encoded by MacRoman or WinAnsi, with glyph names known to Unicode',
      'encode non-symbolic TrueType fonts with /WinAnsiEncoding or /MacRomanEncoding, and name glyphs in /Differences by Adobe Glyph List names',
    ),
    rule(
      'optional_content',
      '7.10',
      'Every optional content configuration has a name and no /AS entry',
      'give each configuration (/OCProperties /D and /Configs) a /Name, and remove /AS',
    ),
    rule(
      'xobjects',
      '7.20',
      'No reference or PostScript XObject',
      'replace reference XObjects with their content, and remove PostScript XObjects',
    ),
    rule(
      'formulas_alt_text',
      '7.7',
      'Every formula has alternate text',
      'give each Formula element an /Alt (or /ActualText) that reads the expression',
    ),
    rule(
      'font_subsets',
      '7.21.4.2',
      'Every CIDSet and CharSet lists the glyphs of its program',
      'list every glyph of the font program in its /CIDSet or /CharSet, or remove the /CIDSet or /CharSet',
    ),
  ];
}

function accessibilityChecks(facts: Facts): Draft[] {
  const doc = facts.document;
  const figures = doc.struct_figures;
  const title = doc.xmp_title ?? doc.title;
  const exempt = (a: Annotation) =>
    a.subtype === 'Popup' ||
    a.subtype === 'PrinterMark' ||
    (a.flags !== null && (a.flags & FLAG_HIDDEN) !== 0);
  return [
    pagesReadable(facts),
    fontsEmbedded(facts),
    ...uaFindingChecks(doc),
    documentCheck(
      'xmp_pdfua_claim',
      doc.xmp_metadata && doc.pdfua === '1',
      `XMP metadata claims PDF/UA-${doc.pdfua}`,
      !doc.xmp_metadata
        ? 'The file has no XMP metadata: add it, with the PDF/UA identification (pdfuaid:part 1)'
        : doc.pdfua === null
          ? 'The XMP metadata does not identify PDF/UA: add pdfuaid:part 1 in the namespace http://www.aiim.org/pdfua/ns/id/, written with the prefix pdfuaid'
          : `The XMP metadata claims PDF/UA part "${doc.pdfua}", and these checks are PDF/UA-1's: set pdfuaid:part to 1`,
    ),
    documentCheck(
      'tagged',
      doc.tagged,
      'The PDF is tagged',
      'The PDF is not tagged (no marked structure tree): make it with tags, or tag it in an editor',
    ),
    documentCheck(
      'suspects',
      !doc.suspects,
      'The tags are not marked as suspect',
      'The file says its tags may be wrong (/MarkInfo /Suspects true): check the tags, then set /Suspects false',
    ),
    doc.tagged
      ? pageCheck(
          facts,
          'untagged_content',
          'error',
          (p) => (p.untagged_content > 0 ? [`${p.untagged_content} operations`] : []),
          {
            pass: 'All content is tagged or marked as an artifact',
            fail: () =>
              'Content that is neither tagged nor marked as an artifact: tag it, or mark headers, footers and decoration as artifacts',
          },
        )
      : notApplicable('untagged_content', 'error', 'The PDF is not tagged (see tagged)'),
    doc.tagged
      ? pageCheck(
          facts,
          'tagged_artifacts',
          'error',
          (p) => ((p.tagged_in_artifacts ?? 0) > 0 ? [`${p.tagged_in_artifacts} sequences`] : []),
          {
            pass: 'No tagged content is marked as an artifact too',
            fail: () =>
              'Tagged content (marked content with an MCID) inside content marked as an artifact: take it out of the artifact, or untag it',
          },
        )
      : notApplicable('tagged_artifacts', 'error', 'The PDF is not tagged (see tagged)'),
    documentCheck(
      'structure_types',
      doc.struct_types_nonstandard.length === 0,
      'Every structure type is standard or role-mapped to one',
      `Structure types that are not standard and map to none: ${listed(doc.struct_types_nonstandard)}: map them in the /RoleMap to standard types`,
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
    documentCheck(
      'heading_nesting',
      doc.struct_heading_skips.length === 0,
      'The numbered headings step down one level at a time',
      `Numbered headings skip levels (${listed(doc.struct_heading_skips)}): start at H1 and go down one level at a time`,
    ),
    uaClauseCheck(
      doc,
      'table_headers',
      '7.5',
      "Every table's data cells have header cells that can be told",
      "give each header cell (TH) a Scope of Row, Column or Both, or give the data cells Headers naming the header cells' IDs",
    ),
    annotationCheck(facts, 'annotations_tagged', (a) => (exempt(a) || a.tagged ? undefined : a.subtype), {
      pass: 'Every annotation is in the structure tree',
      fail: ([types]) =>
        `Annotations outside the structure tree: ${types}: tag them (links in Link, fields in Form, others in Annot)`,
    }),
    annotationCheck(
      facts,
      'annotation_descriptions',
      (a) =>
        exempt(a) || a.subtype === 'Widget' || a.contents || a.alt || a.outside_crop ? undefined : a.subtype,
      {
        pass: 'Every annotation has a description (/Contents, or /Alt on its structure element)',
        fail: ([types]) =>
          `Annotations without a description: ${types}: give each a /Contents saying what it is or where it goes`,
      },
    ),
    pageCheck(
      facts,
      'tab_order',
      'error',
      (p) => (p.annotation_details.length > 0 && p.tab_order !== 'S' ? [p.tab_order ?? 'none'] : []),
      {
        pass: 'Pages with annotations are tabbed in structure order',
        fail: () =>
          "Pages with annotations do not follow the structure when tabbing: set the page's /Tabs to /S",
      },
    ),
    documentCheck(
      'form_field_descriptions',
      doc.form_fields_without_description === 0,
      doc.form_fields > 0 ? `Every form field (${doc.form_fields}) has a description` : 'No form fields',
      `${doc.form_fields_without_description} of ${doc.form_fields} form fields have no description: give each a /TU (the name a screen reader reads)`,
    ),
    pageCheck(
      facts,
      'unicode_text',
      'error',
      (p) => p.fonts.filter((f) => f.unicode_mapping === 'none').map((f) => f.name),
      {
        pass: 'Text can be extracted as Unicode',
        fail: ([names]) =>
          `Fonts whose text maps to no Unicode (no ToUnicode map, standard encoding or Adobe glyph names): ${names}. Make the PDF with ToUnicode maps`,
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
    file_header: '6.1.2',
    not_encrypted: '6.1.3',
    trailer_id: '6.1.3',
    output_intent: '6.2.4.3',
    output_intent_profile: '6.2.3',
    blend_modes: '6.2.10',
    blending_color_space: '6.2.10',
    transfer_functions: '6.2.5',
    rendering_intents: '6.2.6',
    image_dictionaries: '6.2.8.1',
    annotation_types: '6.3.1',
    annotation_flags: '6.3.2',
    annotation_appearances: '6.3.3',
    no_javascript: '6.5.1',
    forbidden_actions: '6.5.1',
    additional_actions: '6.5.2',
    xmp_pdfa_claim: '6.6.4',
    no_embedded_files: '6.8',
    no_transparency_part1: '6.4',
    xmp_info_agreement: '6.7.3',
  },
  'pdf-accessibility': {
    xmp_pdfua_claim: '5',
    fonts_embedded: '7.21.4.1',
    cid_system_info: '7.21.3.1',
    cid_to_gid_map: '7.21.3.2',
    cmaps: '7.21.3.3',
    font_subsets: '7.21.4.2',
    optional_content: '7.10',
    truetype_encodings: '7.21.6',
    structure_nesting: '7.2',
    unnumbered_headings: '7.4.4',
    role_map: '7.1',
    media_clips: '7.18.6.2',
    note_ids: '7.9',
    xobjects: '7.20',
    formulas_alt_text: '7.7',
    tagged: '7.1',
    suspects: '7.1',
    untagged_content: '7.1',
    tagged_artifacts: '7.1',
    structure_types: '7.1',
    language: '7.2',
    title_displayed: '7.1',
    figures_alt_text: '7.3',
    heading_nesting: '7.4.2',
    table_headers: '7.5',
    annotations_tagged: '7.18.1',
    annotation_descriptions: '7.18.1',
    tab_order: '7.18.3',
    form_field_descriptions: '7.18.4',
    unicode_text: '7.21.7',
  },
};

/**
 * The same checks named by ISO 19005-1's clauses, for a file judged as PDF/A-1 (the metadata checks name
 * their clause themselves).
 */
const PART1_CLAUSES: Readonly<Record<string, string>> = {
  fonts_embedded: '6.3.4',
  file_header: '6.1.2',
  not_encrypted: '6.1.3',
  trailer_id: '6.1.3',
  output_intent: '6.2.3.3',
  output_intent_profile: '6.2.2',
  blend_modes: '6.4',
  blending_color_space: '6.4',
  transfer_functions: '6.2.8',
  rendering_intents: '6.2.9',
  image_dictionaries: '6.2.4',
  annotation_types: '6.5.2',
  annotation_flags: '6.5.3',
  annotation_appearances: '6.5.3',
  no_javascript: '6.6.1',
  forbidden_actions: '6.6.1',
  additional_actions: '6.6.2',
  xmp_pdfa_claim: '6.7.11',
  no_embedded_files: '6.1.11',
  no_transparency_part1: '6.4',
};

export type JudgedPart = NonNullable<Profile['judged_as']>;

/**
 * The part of ISO 19005 a file is held to, as veraPDF decides it: the run's `pdfa_part`, else the part the
 * XMP metadata claims, else PDF/A-2.
 */
export function judgedPart(facts: Facts, options: RunOptions): JudgedPart {
  const held = (part: number, basis: JudgedPart['basis']): JudgedPart | undefined =>
    part === 1 || part === 2 || part === 3 ? { part, basis, standard: `ISO 19005-${part}` } : undefined;
  return (
    held(options.pdfa_part ?? 0, 'option') ??
    held(Number(facts.document.pdfa?.[0]), 'claim') ?? { part: 2, basis: 'default', standard: 'ISO 19005-2' }
  );
}

function titleOf(name: ProfileName, judged: JudgedPart | undefined): string {
  if (name === 'pdf-print') return 'Print production checks';
  if (name === 'pdf-accessibility') return 'Accessibility checks (PDF/UA and EAA basics)';
  const why =
    judged?.basis === 'claim'
      ? 'as the file claims'
      : judged?.basis === 'option'
        ? 'as the run asked'
        : 'the file claims no PDF/A part';
  return `PDF/A-${judged?.part ?? 2}b requirements checked, ${why} (not a PDF/A validation)`;
}

export function judge(
  name: ProfileName,
  facts: Facts,
  options: RunOptions,
  settings: ProfileSettings,
): Profile {
  const judged = name === 'pdf-archive' ? judgedPart(facts, options) : undefined;
  const drafts =
    name === 'pdf-print'
      ? printChecks(facts, options, settings)
      : judged
        ? archiveChecks(facts, judged)
        : accessibilityChecks(facts);
  const clauses = judged?.part === 1 ? PART1_CLAUSES : CLAUSES[name];
  const checks: Check[] = drafts.map((draft) => ({
    ...draft,
    clause: draft.clause ?? clauses[draft.id] ?? null,
  }));
  const failed = checks.some((c) => c.status === 'fail' && c.severity === 'error');
  return {
    name,
    title: titleOf(name, judged),
    ...(judged ? { judged_as: judged } : {}),
    verdict: failed ? 'fail' : 'pass',
    checks,
  };
}

export const isProfile = (target: string): target is ProfileName =>
  (PROFILE_NAMES as readonly string[]).includes(target);
