import type { Schemas } from '../contract/schemas.js';
import type { DocumentFacts, PageFacts } from '../pdf/facts.js';

/** Preflight rules: what a print shop or an archive would flag. Pure functions of the parsed facts. */

export type Finding = Schemas['Finding'];
/** A rule's hit on one page (or the document, `page: null`), before hits are grouped into findings. */
export type Hit = Omit<Finding, 'pages'>;

/** What one page task gave: its value, or why it failed. */
export type PageResult<T> =
  { page: number; status: 'ok'; value: T } | { page: number; status: 'failed'; error: string };

export type PageOutcome = PageResult<PageFacts>;

/** Pixels per inch an image needs at its placed size (`dpi` in the facts; "ppi" in every message). */
export const MIN_IMAGE_PPI = 150;

export function documentFindings(doc: DocumentFacts, pages: PageOutcome[]): Hit[] {
  const findings: Hit[] = [];
  if (doc.encrypted) {
    findings.push({
      code: 'encrypted',
      severity: 'warning',
      page: null,
      message:
        'The document is encrypted; some tools will refuse to edit or print it. Save it without encryption ' +
        '(no password, no restrictions) before passing it on',
    });
  }
  if (doc.javascript) {
    findings.push({
      code: 'javascript',
      severity: 'warning',
      page: null,
      message:
        'The document contains JavaScript, which print and archive workflows refuse. Remove it unless ' +
        'the file needs it',
    });
  }
  if (doc.form !== 'none') {
    findings.push({
      code: 'form_fields',
      severity: 'info',
      page: null,
      message: `The document has interactive form fields (${doc.form}). Flatten the form if the file goes to print or to an archive`,
    });
  }
  if (!doc.title && !doc.xmp_title) {
    findings.push({
      code: 'missing_title',
      severity: 'info',
      page: null,
      message:
        'The document has no title in its metadata. Set one in the document properties, or in the title ' +
        'field of the application that makes the PDF',
    });
  }
  const sizes = new Set(
    pages.flatMap((p) =>
      p.status === 'ok' ? [`${Math.round(p.value.width_pt)}x${Math.round(p.value.height_pt)}`] : [],
    ),
  );
  if (sizes.size > 1) {
    findings.push({
      code: 'mixed_page_sizes',
      severity: 'warning',
      page: null,
      message: `Pages come in ${sizes.size} sizes: ${[...sizes].join(', ')} pt. If they should be one size, set it where the PDF is made`,
    });
  }
  return findings;
}

export function pageFindings(outcome: PageOutcome): Hit[] {
  const page = outcome.page;
  if (outcome.status === 'failed') {
    return [
      {
        code: 'page_unreadable',
        severity: 'error',
        page,
        message: `The page could not be parsed: ${outcome.error}. Make the PDF again from its source (or repair it) and run the diagnosis again`,
      },
    ];
  }
  const facts = outcome.value;
  const findings: Hit[] = [];
  for (const font of facts.fonts) {
    if (font.used_for_rendering && !font.embedded) {
      findings.push({
        code: 'font_not_embedded',
        severity: 'error',
        page,
        message: `Font ${font.name} (${font.type}) is not embedded. Embed it when the PDF is made (or print it to PDF again)`,
      });
    }
  }
  if (!facts.has_text && facts.images.length > 0) {
    findings.push({
      code: 'image_only_page',
      severity: 'warning',
      page,
      message:
        'The page has images but no text layer (scanned?). Run text recognition (OCR) on it so that its ' +
        'text can be searched, copied and read aloud',
    });
  } else if (!facts.has_text && facts.images.length === 0) {
    findings.push({
      code: 'blank_page',
      severity: 'info',
      page,
      message: 'The page has neither text nor images. Remove it unless it is meant to be blank',
    });
  }
  for (const image of facts.images) {
    if (image.dpi !== null && image.dpi < MIN_IMAGE_PPI) {
      findings.push({
        code: 'low_resolution_image',
        severity: 'warning',
        page,
        message: `An image of ${image.width_px}x${image.height_px} px is placed at ${image.dpi} ppi (under ${MIN_IMAGE_PPI}). Use an image with more pixels, or place it smaller`,
      });
    }
  }
  if (facts.rotation !== 0) {
    findings.push({
      code: 'rotated_page',
      severity: 'info',
      page,
      message: `The page is rotated by ${facts.rotation} degrees`,
    });
  }
  return findings;
}

export type PreflightReport = Schemas['PreflightReport'];

/**
 * One finding per check and subject: hits with the same code, severity and message (which names the subject,
 * never the page) become one finding listing their pages, each once and ascending, where the first hit
 * stood; its `page` is the first of them (five images of one size on one page are one finding on page 1,
 * not on pages 1, 1, 1, 1, 1).
 */
export function groupFindings(hits: Hit[]): Finding[] {
  const grouped = new Map<string, { finding: Finding; pages: Set<number> }>();
  for (const hit of hits) {
    const key = `${hit.code}\n${hit.severity}\n${hit.message}`;
    const found = grouped.get(key);
    if (!found) grouped.set(key, { finding: { ...hit, pages: [] }, pages: new Set() });
    if (hit.page !== null) grouped.get(key)!.pages.add(hit.page);
  }
  return [...grouped.values()].map(({ finding, pages }) => {
    const sorted = [...pages].sort((a, b) => a - b);
    return { ...finding, page: sorted[0] ?? null, pages: sorted };
  });
}

type RuleFailure = NonNullable<DocumentFacts['rule_failures']>[number];
type ClauseFinding = NonNullable<PreflightReport['document']['object_findings']>[number];
type UaFinding = NonNullable<PreflightReport['document']['ua_findings']>[number];

/** ISO 19005's metadata clauses: 6.7 of part 1, 6.6 of parts 2 and 3. */
const isMetadataClause = (f: RuleFailure) =>
  f.specification === 'ISO 19005-1' ? f.clause.startsWith('6.7') : f.clause.startsWith('6.6');

/**
 * The findings of earlier reports (`object_findings`, `metadata_findings`, `content_findings`), kept for their
 * readers: the rules' failures of parts 1 and 2 (part 3 shares part 2's) by clause, in a sentence each.
 */
function clauseFindings(
  failures: readonly RuleFailure[],
  keep: (f: RuleFailure) => boolean,
  limit: number,
): ClauseFinding[] {
  return failures
    .filter((f) => f.specification === 'ISO 19005-1' || f.specification === 'ISO 19005-2')
    .filter(keep)
    .slice(0, limit)
    .map((f) => ({
      part: f.specification === 'ISO 19005-1' ? 1 : 2,
      clause: f.clause,
      message: `${f.clause}-${f.test}: ${f.examples.join('; ')}`.slice(0, 400),
    }));
}

/**
 * `ua_findings` as earlier reports had it, kept for its readers: the failures of ISO 14289-1's rules, the
 * document's and the pages', at most five per clause, in a sentence each.
 */
function uaFindings(failures: readonly RuleFailure[]): UaFinding[] {
  const perClause = new Map<string, number>();
  const found: UaFinding[] = [];
  for (const f of failures) {
    if (f.specification !== 'ISO 14289-1' || found.length >= 40) continue;
    const n = perClause.get(f.clause) ?? 0;
    if (n >= 5) continue;
    perClause.set(f.clause, n + 1);
    found.push({
      clause: f.clause,
      message: `${f.clause}-${f.test}: ${f.examples.join('; ')}`.slice(0, 400),
    });
  }
  return found;
}

function earlierFindings(doc: DocumentFacts, pages: readonly PageOutcome[]) {
  const failures = doc.rule_failures;
  if (!failures) return {};
  const ua = [...failures, ...pages.flatMap((p) => (p.status === 'ok' ? (p.value.rule_failures ?? []) : []))];
  return {
    object_findings: clauseFindings(failures, (f) => !isMetadataClause(f), 60),
    metadata_findings: clauseFindings(failures, isMetadataClause, 40),
    ...(ua.some((f) => f.specification === 'ISO 14289-1') ? { ua_findings: uaFindings(ua) } : {}),
  };
}

export function buildReport(
  ids: { run_id: string; file_id: string; file_name: string; generated_at: string },
  doc: DocumentFacts,
  pages: PageOutcome[],
  judge?: (facts: Pick<PreflightReport, 'document' | 'pages'>) => NonNullable<PreflightReport['profile']>,
): PreflightReport {
  const observed = groupFindings([...documentFindings(doc, pages), ...pages.flatMap(pageFindings)]);
  const spots = new Set(pages.flatMap((p) => (p.status === 'ok' ? p.value.spot_colors : [])));
  const facts: Pick<PreflightReport, 'document' | 'pages'> = {
    document: { ...doc, spot_colors: [...spots].sort(), ...earlierFindings(doc, pages) },
    pages: pages.map((p) =>
      p.status === 'ok'
        ? {
            page: p.page,
            status: 'ok',
            ...p.value,
            ...(p.value.rule_failures
              ? { content_findings: clauseFindings(p.value.rule_failures, () => true, 40) }
              : {}),
            error: null,
          }
        : {
            page: p.page,
            status: 'failed',
            width_pt: null,
            height_pt: null,
            rotation: null,
            boxes: null,
            transparency: false,
            spot_colors: [],
            fonts: [],
            has_text: false,
            images: [],
            annotations: 0,
            links: 0,
            annotation_details: [],
            tab_order: null,
            group_color_space: null,
            group_device_colors: [],
            blend_modes: [],
            transfer_functions: false,
            rendering_intents: [],
            interpolated_images: 0,
            device_colors: [],
            untagged_content: 0,
            tagged_in_artifacts: 0,
            content_findings: [],
            error: p.error,
          },
    ),
  };
  const profile = judge?.(facts);
  const findings = sortBySeverity(profile ? judgedFindings(profile, observed) : observed);
  return {
    ...ids,
    ...facts,
    findings,
    ...(profile ? { profile } : {}),
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      infos: findings.filter((f) => f.severity === 'info').length,
      pages_ok: pages.filter((p) => p.status === 'ok').length,
      pages_failed: pages.filter((p) => p.status === 'failed').length,
    },
  };
}

/** The findings a profile's check judges itself: under that profile, the check's verdict tells of them. */
const JUDGED_BY: Readonly<Record<string, readonly string[]>> = {
  pages_readable: ['page_unreadable'],
  fonts_embedded: ['font_not_embedded'],
  not_encrypted: ['encrypted'],
  no_javascript: ['javascript'],
  title_displayed: ['missing_title'],
  scanned_pages: ['image_only_page'],
  image_resolution: ['low_resolution_image'],
  image_resolution_critical: ['low_resolution_image'],
};

/**
 * One story under a profile: each failed check is a finding (`check_<id>`, its severity, pages and message),
 * and the observations a check of the profile judges are left to it, so the summary's counts, the cards,
 * the page pictures and the CLI count what the verdict counts. Observations no check judges stay as they are.
 */
function judgedFindings(profile: NonNullable<PreflightReport['profile']>, observed: Finding[]): Finding[] {
  const judged = new Set(profile.checks.flatMap((c) => JUDGED_BY[c.id] ?? []));
  const failed = profile.checks
    .filter((c) => c.status === 'fail')
    .map((c) => ({
      code: `check_${c.id}`,
      severity: c.severity,
      page: c.pages[0] ?? null,
      pages: c.pages,
      message: c.message,
    }));
  return [...failed, ...observed.filter((f) => !judged.has(f.code))];
}

const SEVERITY_ORDER: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2 };

/** Most severe first; within a severity, document-level findings, then by page. */
export function sortBySeverity(findings: Finding[]): Finding[] {
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort(
      (a, b) =>
        SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] ||
        (a.finding.page ?? 0) - (b.finding.page ?? 0) ||
        a.index - b.index,
    )
    .map(({ finding }) => finding);
}

/**
 * Up to `limit` pages to picture: the first page of each failed check (with a profile) or of each error or
 * warning code (without one), the most severe first. One picture per check, not per subject: a document whose
 * 53 images each sit at their own low resolution is one problem to look at, and drawing a page decodes its
 * images at full size (twelve pictures were 70 of the 100 ms a 42-page, image-heavy run took). A page whose
 * only finding is a note (blank, rotated) tells a reader nothing new. A page that could not be parsed is not
 * drawn either: drawing parses it again and fails the same way, at the same cost (a Flate bomb's page took
 * 1.6 s to fail twice).
 */
function firstPageOfEachCode(findings: Finding[]): (number | null)[] {
  const pictured = new Set<string>();
  return findings.flatMap((f) => {
    if (f.page === null || pictured.has(f.code)) return [];
    pictured.add(f.code);
    return [f.page];
  });
}

export function pagesWorthAPicture(
  findings: Finding[],
  limit: number,
  profile?: PreflightReport['profile'],
): number[] {
  const unreadable = new Set(findings.filter((f) => f.code === 'page_unreadable').flatMap((f) => f.pages));
  const firstPages = profile
    ? profile.checks
        .filter((c) => c.status === 'fail' && c.severity !== 'info')
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
        .map((c) => c.pages.find((page) => !unreadable.has(page)))
    : firstPageOfEachCode(findings.filter((f) => f.severity !== 'info' && f.code !== 'page_unreadable'));
  const pages: number[] = [];
  for (const page of firstPages) {
    if (pages.length >= limit) break;
    if (page !== null && page !== undefined && !pages.includes(page)) pages.push(page);
  }
  return pages;
}

/** "1-3, 5, 9-10": pages as ranges, as a person reads them. */
export function pageRanges(pages: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    const start = pages[i]!;
    while (i + 1 < pages.length && pages[i + 1] === pages[i]! + 1) i++;
    ranges.push(start === pages[i] ? String(start) : `${start}-${pages[i]}`);
  }
  return ranges.join(', ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "3 errors, 1 warning, 2 notes": the same words everywhere a count of findings is shown. */
export function describeCounts(summary: { errors: number; warnings: number; infos: number }): string {
  return [
    plural(summary.errors, 'error', 'errors'),
    plural(summary.warnings, 'warning', 'warnings'),
    plural(summary.infos, 'note', 'notes'),
  ].join(', ');
}
