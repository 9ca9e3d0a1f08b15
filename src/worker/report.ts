import type { Schemas } from '../contract.js';
import type { DocumentFacts, PageFacts } from '../pdf/facts.js';

/** Preflight rules: what a print shop or an archive would flag. Pure functions of the parsed facts. */

export type Finding = Schemas['Finding'];

/** What one page task gave: its value, or why it failed. */
export type PageResult<T> =
  { page: number; status: 'ok'; value: T } | { page: number; status: 'failed'; error: string };

export type PageOutcome = PageResult<PageFacts>;

export const MIN_IMAGE_DPI = 150;

export function documentFindings(doc: DocumentFacts, pages: PageOutcome[]): Finding[] {
  const findings: Finding[] = [];
  if (doc.encrypted) {
    findings.push({
      code: 'encrypted',
      severity: 'warning',
      page: null,
      message: 'The document is encrypted; some tools will refuse to edit or print it',
    });
  }
  if (doc.javascript) {
    findings.push({
      code: 'javascript',
      severity: 'warning',
      page: null,
      message: 'The document contains JavaScript',
    });
  }
  if (doc.form !== 'none') {
    findings.push({
      code: 'form_fields',
      severity: 'info',
      page: null,
      message: `The document has interactive form fields (${doc.form})`,
    });
  }
  if (!doc.title) {
    findings.push({
      code: 'missing_title',
      severity: 'info',
      page: null,
      message: 'The document has no title in its metadata',
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
      message: `Pages come in ${sizes.size} sizes: ${[...sizes].join(', ')} pt`,
    });
  }
  return findings;
}

export function pageFindings(outcome: PageOutcome): Finding[] {
  const page = outcome.page;
  if (outcome.status === 'failed') {
    return [
      {
        code: 'page_unreadable',
        severity: 'error',
        page,
        message: `The page could not be parsed: ${outcome.error}`,
      },
    ];
  }
  const facts = outcome.value;
  const findings: Finding[] = [];
  for (const font of facts.fonts) {
    if (!font.embedded) {
      findings.push({
        code: 'font_not_embedded',
        severity: 'error',
        page,
        message: `Font ${font.name} (${font.type}) is not embedded`,
      });
    }
  }
  if (!facts.has_text && facts.images.length > 0) {
    findings.push({
      code: 'image_only_page',
      severity: 'warning',
      page,
      message: 'The page has images but no text layer (scanned?)',
    });
  } else if (!facts.has_text && facts.images.length === 0) {
    findings.push({
      code: 'blank_page',
      severity: 'info',
      page,
      message: 'The page has neither text nor images',
    });
  }
  for (const image of facts.images) {
    if (image.dpi !== null && image.dpi < MIN_IMAGE_DPI) {
      findings.push({
        code: 'low_resolution_image',
        severity: 'warning',
        page,
        message: `An image of ${image.width_px}x${image.height_px} px is placed at ${image.dpi} dpi (under ${MIN_IMAGE_DPI})`,
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

export function buildReport(
  ids: { run_id: string; file_id: string; file_name: string; generated_at: string },
  doc: DocumentFacts,
  pages: PageOutcome[],
): PreflightReport {
  const findings = sortBySeverity([...documentFindings(doc, pages), ...pages.flatMap(pageFindings)]);
  return {
    ...ids,
    document: doc,
    pages: pages.map((p) =>
      p.status === 'ok'
        ? { page: p.page, status: 'ok', ...p.value, error: null }
        : {
            page: p.page,
            status: 'failed',
            width_pt: null,
            height_pt: null,
            rotation: null,
            fonts: [],
            has_text: false,
            images: [],
            annotations: 0,
            links: 0,
            error: p.error,
          },
    ),
    findings,
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      infos: findings.filter((f) => f.severity === 'info').length,
      pages_ok: pages.filter((p) => p.status === 'ok').length,
      pages_failed: pages.filter((p) => p.status === 'failed').length,
    },
  };
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
 * Up to `limit` pages to picture: for each distinct error or warning (the same code and message), the first
 * page it appears on, the most severe first (findings come sorted so). A font missing from every page is one
 * picture, not twelve of the same problem; a page whose only finding is a note (blank, rotated) tells a reader
 * nothing new. A page that could not be parsed is not drawn either: drawing parses it again and fails the same
 * way, at the same cost (a Flate bomb's page took 1.6 s to fail twice).
 */
export function pagesWorthAPicture(findings: Finding[], limit: number): number[] {
  const pages: number[] = [];
  const pictured = new Set<string>();
  for (const finding of findings) {
    if (pages.length >= limit || finding.severity === 'info') break;
    if (finding.page === null || finding.code === 'page_unreadable') continue;
    const problem = `${finding.code}\n${finding.message}`;
    if (pictured.has(problem)) continue;
    pictured.add(problem);
    if (!pages.includes(finding.page)) pages.push(finding.page);
  }
  return pages;
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
