import {
  annotationCheck,
  capitalized,
  documentCheck,
  type Draft,
  type Facts,
  fail,
  FLAG_HIDDEN,
  FLAG_INVISIBLE,
  FLAG_NOVIEW,
  FLAG_PRINT,
  FLAG_TOGGLE_NOVIEW,
  fontsEmbedded,
  type JudgedPart,
  listed,
  notApplicable,
  okPages,
  pageCheck,
  pagesReadable,
  pass,
} from './checks.js';

/** `pdf-archive`: the requirements of ISO 19005 (PDF/A) a file is held to, by the part it is judged by. */

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

export function archiveChecks(facts: Facts, judged: JudgedPart): Draft[] {
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
