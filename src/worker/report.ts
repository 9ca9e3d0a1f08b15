import type { Schemas } from '../contract.js';
import type { DocumentFacts, PageFacts } from './pdf/analyse.js';

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
  const findings = [...documentFindings(doc, pages), ...pages.flatMap(pageFindings)];
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

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A page a person reads: summary, findings table, per-page overview. Self-contained, no scripts. */
export function renderReportHtml(report: PreflightReport): string {
  const row = (cells: unknown[]) => `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  const d = report.document;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Preflight report: ${escapeHtml(report.file_name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse;margin:1rem 0}
td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}th{background:#f4f4f4}
.error{color:#b00020}.warning{color:#a15c00}.info{color:#555}</style></head><body>
<h1>Preflight report</h1>
<p>${escapeHtml(report.file_name)} &middot; run ${escapeHtml(report.run_id)} &middot; ${escapeHtml(report.generated_at)}</p>
<h2>Summary</h2>
<table>
${row(['PDF version', d.pdf_version])}${row(['Pages', d.page_count])}${row(['Encrypted', d.encrypted ? 'yes' : 'no'])}
${row(['Form', d.form])}${row(['JavaScript', d.javascript ? 'yes' : 'no'])}${row(['Outline', d.outline ? 'yes' : 'no'])}
${row(['Title', d.title])}${row(['Producer', d.producer])}
${row(['Findings', `${report.summary.errors} errors, ${report.summary.warnings} warnings, ${report.summary.infos} notes`])}
${row(['Pages parsed', `${report.summary.pages_ok} ok, ${report.summary.pages_failed} failed`])}
</table>
<h2>Findings</h2>
<table><tr><th>Severity</th><th>Code</th><th>Page</th><th>Message</th></tr>
${report.findings.map((f) => `<tr class="${f.severity}"><td>${f.severity}</td><td>${escapeHtml(f.code)}</td><td>${escapeHtml(f.page ?? '')}</td><td>${escapeHtml(f.message)}</td></tr>`).join('\n')}
</table>
<h2>Pages</h2>
<table><tr><th>Page</th><th>Status</th><th>Size (pt)</th><th>Rotation</th><th>Fonts (not embedded)</th><th>Text</th><th>Images (min dpi)</th><th>Annotations</th><th>Links</th></tr>
${report.pages
  .map((p) => {
    const notEmbedded = p.fonts.filter((f) => !f.embedded).length;
    const dpis = p.images.flatMap((i) => (i.dpi === null ? [] : [i.dpi]));
    return row([
      p.page,
      p.status === 'ok' ? 'ok' : `failed: ${p.error}`,
      p.width_pt === null ? '' : `${p.width_pt} x ${p.height_pt}`,
      p.rotation ?? '',
      `${p.fonts.length} (${notEmbedded})`,
      p.has_text ? 'yes' : 'no',
      p.images.length === 0 ? '0' : `${p.images.length} (${dpis.length ? Math.min(...dpis) : '-'})`,
      p.annotations,
      p.links,
    ]);
  })
  .join('\n')}
</table></body></html>
`;
}
