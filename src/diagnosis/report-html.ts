import { PRINT_BASIS } from './print.js';
import { describeCounts, type Finding, pageRanges, type PreflightReport } from './report.js';

/** Bounds of `report.html`: `report.json` always holds everything. */
export interface ReportLimits {
  /** Pages with findings that get a picture. */
  thumbnails: number;
  /** Rows of the per-page table. */
  htmlPages: number;
}

export const THUMBNAIL_WIDTH = 180;
/** Findings listed in the page; the rest are counted and left to report.json. */
const HTML_FINDINGS = 1000;

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SEVERITY_LABEL: Record<Finding['severity'], string> = {
  error: 'Error',
  warning: 'Warning',
  info: 'Note',
};

const STYLE = `
:root{--error:#b3261e;--warning:#8a5a00;--info:#4a5568;--line:#e2e8f0}
*{box-sizing:border-box}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1a202c;background:#f7fafc}
main{max-width:1100px;margin:0 auto;padding:2rem 1.5rem 4rem}
h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2.5rem 0 .75rem}
.meta{color:#4a5568;margin:0 0 1.5rem;word-break:break-all}
.cards{display:flex;gap:1rem;flex-wrap:wrap;margin:1rem 0 1.5rem}
.card{background:#fff;border:1px solid var(--line);border-radius:10px;padding:.9rem 1.2rem;min-width:140px}
.card b{display:block;font-size:1.7rem;line-height:1.2}
.card.error b{color:var(--error)}.card.warning b{color:var(--warning)}.card.info b{color:var(--info)}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line);border-radius:10px;overflow:hidden}
td,th{border-bottom:1px solid var(--line);padding:.45rem .7rem;text-align:left;vertical-align:top}
th{background:#edf2f7;font-weight:600}
.badge{display:inline-block;border-radius:999px;padding:0 .6rem;font-size:.8rem;font-weight:600;color:#fff}
.badge.error{background:var(--error)}.badge.warning{background:var(--warning)}.badge.info{background:var(--info)}
.facts td:first-child{width:12rem;color:#4a5568}
.thumbs{display:grid;grid-template-columns:repeat(auto-fill,minmax(${THUMBNAIL_WIDTH + 20}px,1fr));gap:1rem}
figure{margin:0;background:#fff;border:1px solid var(--line);border-radius:10px;padding:10px}
figure img{display:block;width:100%;height:auto;border:1px solid var(--line)}
figcaption{margin-top:.4rem;font-size:.85rem}
.more{color:#4a5568;font-style:italic}
.verdict{border-radius:10px;padding:1rem 1.4rem;margin:0 0 1.5rem;color:#fff;font-size:1.1rem}
.verdict b{font-size:1.5rem;margin-right:.6rem}
.verdict.pass{background:#1e7b34}.verdict.fail{background:var(--error)}
.status{font-weight:600}.status.fail{color:var(--error)}.status.pass{color:#1e7b34}.status.not_applicable{color:#718096}
.clause{white-space:nowrap}.rules ul{margin:.3em 0;padding-left:1.2em}.rules li{font-size:.9em}.rules summary{cursor:pointer;color:#4a5568;font-size:.9em}.basis{color:#4a5568;font-size:.9em;min-width:12rem;max-width:20rem}
.status.fail.warning{color:var(--warning)}.status.fail.info{color:var(--info)}
.status.review{color:var(--warning)}.status.not_checked{color:#718096}.conditions{margin:0 0 .3em;padding-left:1.2em}.review li{margin:.2em 0}
`;

function badge(severity: Finding['severity']): string {
  return `<span class="badge ${severity}">${SEVERITY_LABEL[severity]}</span>`;
}

function factsTable(report: PreflightReport): string {
  const d = report.document;
  const rows: [string, unknown][] = [
    ['Pages', d.page_count],
    ['PDF version', d.pdf_version],
    ['Title', d.title ?? '(none)'],
    ['Producer', d.producer ?? '(unknown)'],
    ['Encrypted', d.encrypted ? 'yes' : 'no'],
    ['Form', d.form],
    ['JavaScript', d.javascript ? 'yes' : 'no'],
    ['Outline', d.outline ? 'yes' : 'no'],
    ['Tagged', d.tagged ? 'yes' : 'no'],
    ['Language', d.language ?? '(none)'],
    ['PDF/A, PDF/UA, PDF/X claimed', [d.pdfa, d.pdfua, d.pdfx].map((v) => v ?? '-').join(' / ')],
    [
      'Output intents',
      d.output_intents.map((o) => `${o.subtype} ${o.identifier ?? ''}`).join(', ') || '(none)',
    ],
    ['Spot colours', d.spot_colors.join(', ') || '(none)'],
    ['Pages parsed', `${report.summary.pages_ok} ok, ${report.summary.pages_failed} failed`],
  ];
  return `<table class="facts">${rows.map(([k, v]) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`).join('')}</table>`;
}

function thumbnailGrid(report: PreflightReport, thumbnails: Map<number, Uint8Array>): string {
  if (thumbnails.size === 0) return '';
  // each finding once on each of its pages: the captions count what the summary counts, findings
  const byPage = new Map<number, Set<Finding>>();
  for (const f of report.findings)
    for (const page of f.pages) byPage.set(page, (byPage.get(page) ?? new Set()).add(f));
  const figures = [...thumbnails.keys()]
    .sort((a, b) => a - b)
    .map((page) => {
      const found = [...(byPage.get(page) ?? [])];
      const counts = {
        errors: found.filter((f) => f.severity === 'error').length,
        warnings: found.filter((f) => f.severity === 'warning').length,
        infos: found.filter((f) => f.severity === 'info').length,
      };
      const png = Buffer.from(thumbnails.get(page)!).toString('base64');
      return `<figure><img alt="Page ${page}" src="data:image/png;base64,${png}"><figcaption><b>Page ${page}</b> &middot; findings: ${escapeHtml(describeCounts(counts))}</figcaption></figure>`;
    });
  return `<h2>${escapeHtml(thumbnailHeading(report, [...thumbnails.keys()]))}</h2><div class="thumbs">${figures.join('')}</div>`;
}

/**
 * What the pictured pages are: under a profile, pages that fail only where a check of severity error failed
 * on them (a PASS report's pictures are of its warnings); without one, pages with findings.
 */
function thumbnailHeading(report: PreflightReport, pages: number[]): string {
  if (!report.profile) return 'Pages with findings';
  const failing = report.profile.checks.some(
    (c) => c.status === 'fail' && c.severity === 'error' && c.pages.some((page) => pages.includes(page)),
  );
  return failing ? 'Pages that fail' : 'Pages with warnings';
}

function findingsTable(findings: Finding[]): string {
  if (findings.length === 0) return '<p>No findings.</p>';
  const shown = findings.slice(0, HTML_FINDINGS);
  const rows = shown.map(
    (f) =>
      `<tr><td>${badge(f.severity)}</td><td>${escapeHtml(f.pages.length ? pageRanges(f.pages) : 'document')}</td><td><code>${escapeHtml(f.code)}</code></td><td>${escapeHtml(f.message)}</td></tr>`,
  );
  const more =
    findings.length > shown.length
      ? `<p class="more">${findings.length - shown.length} more findings are in report.json.</p>`
      : '';
  return `<table><tr><th>Severity</th><th>Pages</th><th>Code</th><th>Message</th></tr>${rows.join('')}</table>${more}`;
}

/**
 * A check's status as a reader takes it: a failed check of severity error fails the profile ("Fail"); one of
 * severity warning or info does not, and says what it is ("Warning", "Note"), as report.json's `severity` does.
 */
function statusLabel(check: NonNullable<PreflightReport['profile']>['checks'][number]): string {
  if (check.status === 'pass') return 'Pass';
  if (check.status === 'not_applicable') return 'Not applicable';
  return check.severity === 'error' ? 'Fail' : SEVERITY_LABEL[check.severity];
}
/**
 * Where a profile's clauses are from: the part of ISO 19005 `pdf-archive` judged by (ISO 19005-1's for the
 * PDF/A-1-only checks whatever the part).
 */
const STANDARD_OF = {
  'pdf-print': '',
  'pdf-archive': 'ISO 19005-2',
  'pdf-accessibility': 'ISO 14289-1',
} as const;

type RuleOutcome = NonNullable<NonNullable<PreflightReport['profile']>['checks'][number]['rules']>[number];

/** A check's published rules in its clause cell: the failing rules' ids, or the clause and how many rules. */
function ruleReference(specification: string, rules: readonly RuleOutcome[]): string {
  const failing = rules.filter((r) => r.status === 'fail');
  if (failing.length > 0) return `${specification} ${failing.map((r) => `${r.clause}-${r.test}`).join(', ')}`;
  const clauses = [...new Set(rules.map((r) => r.clause))];
  return `${specification} ${clauses.join(', ')} (${rules.length} ${rules.length === 1 ? 'rule' : 'rules'})`;
}

/** Every rule of a check with its status, folded: what "passed" was made of. */
function rulesList(rules: readonly RuleOutcome[]): string {
  const items = rules.map(
    (r) =>
      `<li><span class="status ${r.status}">${r.status === 'fail' ? 'Fail' : 'Pass'}</span> <code>${escapeHtml(`${r.clause}-${r.test}`)}</code> ${escapeHtml(r.status === 'fail' ? `${r.objects} ${r.objects === 1 ? 'object' : 'objects'}` : r.message)}</li>`,
  );
  return `<details class="rules"><summary>${rules.length} published ${rules.length === 1 ? 'rule' : 'rules'}</summary><ul>${items.join('')}</ul></details>`;
}

/** The verdict first, then the checks grouped by severity, failed checks first within a group. */
function profileSection(profile: NonNullable<PreflightReport['profile']>): string {
  const failedErrors = profile.checks.filter((c) => c.status === 'fail' && c.severity === 'error').length;
  const banner = `<div class="verdict ${profile.verdict}"><b>${profile.verdict === 'pass' ? 'PASS' : 'FAIL'}</b>${escapeHtml(profile.title)} (${escapeHtml(profile.name)})${failedErrors ? ` &middot; ${failedErrors} failed ${failedErrors === 1 ? 'check' : 'checks'} of severity error` : ''}</div>`;
  const order = { fail: 0, pass: 1, not_applicable: 2 } as const;
  const standard = profile.judged_as?.standard ?? STANDARD_OF[profile.name];
  const part1Only = new Set(['no_transparency_part1', 'xmp_info_agreement']);
  // the print profile is the service's own: its checks rest on print practice and PDF/X, not on clauses
  const printing = profile.name === 'pdf-print';
  // a profile made of published rules names them by id (6.1.13-3), not by clause
  const ruled = profile.checks.some((c) => c.rules);
  const reference = (c: (typeof profile.checks)[number]) =>
    printing
      ? (PRINT_BASIS[c.id] ?? '')
      : c.rules
        ? ruleReference(c.specification ?? standard, c.rules)
        : c.clause
          ? `${part1Only.has(c.id) ? 'ISO 19005-1' : standard} ${c.clause}`
          : '';
  const groups = (['error', 'warning', 'info'] as const).map((severity) => {
    const checks = profile.checks
      .filter((c) => c.severity === severity)
      .sort((a, b) => order[a.status] - order[b.status]);
    if (checks.length === 0) return '';
    const rows = checks.map(
      (c) =>
        `<tr><td class="status ${c.status === 'fail' ? `fail ${c.severity}` : c.status}">${statusLabel(c)}</td><td><code>${escapeHtml(c.id)}</code></td><td class="${printing ? 'basis' : 'clause'}">${escapeHtml(reference(c))}</td><td>${escapeHtml(c.message)}${c.rules ? rulesList(c.rules) : ''}</td><td>${escapeHtml(pageRanges(c.pages))}</td></tr>`,
    );
    return `<h3>${badge(severity)} checks</h3><table><tr><th>Status</th><th>Check</th><th>${printing ? 'Basis' : ruled ? 'Rules' : 'Clause'}</th><th>Result</th><th>Pages</th></tr>${rows.join('')}</table>`;
  });
  return `${banner}<h2>Checks</h2>${groups.join('')}${profile.matterhorn ? matterhornSection(profile.matterhorn) : ''}`;
}

type Checkpoint = NonNullable<NonNullable<PreflightReport['profile']>['matterhorn']>[number];

const MATTERHORN_LABEL = {
  fail: 'Fail',
  pass: 'Pass',
  review: 'To review',
  not_checked: 'Not checked',
} as const;

/**
 * The checks as the Matterhorn Protocol groups them: a row per checkpoint with its failed conditions (and the
 * checks that found them); then, apart, the conditions only a person can judge, which no machine passes.
 */
function matterhornSection(checkpoints: readonly Checkpoint[]): string {
  const rows = checkpoints.map((cp) => {
    const failed = cp.conditions.filter((c) => c.status === 'fail');
    const counts = (['pass', 'review', 'not_checked'] as const)
      .map((status) => [status, cp.conditions.filter((c) => c.status === status).length] as const)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${n} ${MATTERHORN_LABEL[status].toLowerCase()}`);
    const found = failed
      .map(
        (c) =>
          `<li><code>${escapeHtml(c.condition)}</code> ${escapeHtml(c.description)} (${c.checks.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')})</li>`,
      )
      .join('');
    return `<tr><td class="status ${cp.status === 'fail' ? 'fail error' : cp.status}">${MATTERHORN_LABEL[cp.status]}</td><td><code>${escapeHtml(cp.checkpoint)}</code> ${escapeHtml(cp.title)}</td><td>${found ? `<ul class="conditions">${found}</ul>` : ''}${escapeHtml(counts.join(', '))}</td></tr>`;
  });
  const review = checkpoints
    .map((cp) => ({ cp, conditions: cp.conditions.filter((c) => c.status === 'review') }))
    .filter(({ conditions }) => conditions.length > 0);
  const reviewCount = review.reduce((n, { conditions }) => n + conditions.length, 0);
  const reviewList = review
    .map(
      ({ cp, conditions }) =>
        `<li><b>${escapeHtml(cp.checkpoint)} ${escapeHtml(cp.title)}</b><ul>${conditions.map((c) => `<li><code>${escapeHtml(c.condition)}</code> ${escapeHtml(c.description)}</li>`).join('')}</ul></li>`,
    )
    .join('');
  return `<h2>Matterhorn Protocol</h2><p>The checks by the checkpoints of the Matterhorn Protocol 1.1 (PDF Association), as PAC and other checkers name PDF/UA faults.</p><table class="matterhorn"><tr><th>Status</th><th>Checkpoint</th><th>Failure conditions</th></tr>${rows.join('')}</table><h3>To review by a person (${reviewCount} conditions)</h3><p>Only a person can judge these (reading order, whether a description says what a figure shows, ...): no check passes them.</p><ul class="review">${reviewList}</ul>`;
}

function pagesTable(report: PreflightReport, limit: number): string {
  const shown = report.pages.slice(0, limit);
  const rows = shown.map((p) => {
    const notEmbedded = p.fonts.filter((f) => f.used_for_rendering && !f.embedded).length;
    const dpis = p.images.flatMap((i) => (i.dpi === null ? [] : [i.dpi]));
    const cells = [
      p.page,
      p.status === 'ok' ? 'ok' : `failed: ${p.error}`,
      p.width_pt === null ? '' : `${p.width_pt} × ${p.height_pt}`,
      p.rotation ?? '',
      `${p.fonts.length}${notEmbedded ? ` (${notEmbedded} not embedded)` : ''}`,
      p.has_text ? 'yes' : 'no',
      p.images.length === 0
        ? '0'
        : `${p.images.length} (lowest ${dpis.length ? Math.min(...dpis) : '-'} ppi)`,
      p.annotations,
      p.links,
    ];
    return `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const more =
    report.pages.length > shown.length
      ? `<p class="more">The table shows the first ${shown.length} of ${report.pages.length} pages; report.json has every page.</p>`
      : '';
  return `<table><tr><th>Page</th><th>Status</th><th>Size (pt)</th><th>Rotation</th><th>Fonts</th><th>Text</th><th>Images</th><th>Annotations</th><th>Links</th></tr>${rows.join('')}</table>${more}`;
}

/** Each target's page by what it checks: a print check's page is no preflight report. */
const REPORT_TITLE = {
  'pdf-preflight': 'Preflight report',
  'pdf-print': 'Print check',
  'pdf-archive': 'Archive (PDF/A) check',
  'pdf-accessibility': 'Accessibility (PDF/UA) check',
} as const;

/**
 * A page a person reads: the counts, pictures of the pages with the most severe findings, the findings
 * most severe first, and a per-page table. Self-contained (images inline), no scripts, bounded in size.
 */
export function renderReportHtml(
  report: PreflightReport,
  thumbnails: Map<number, Uint8Array>,
  limits: ReportLimits,
): string {
  const s = report.summary;
  const title = REPORT_TITLE[report.profile?.name ?? 'pdf-preflight'];
  const card = (cls: string, n: number, label: string) =>
    `<div class="card ${cls}"><b>${n}</b>${label}</div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}: ${escapeHtml(report.file_name)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(report.file_name)} &middot; run ${escapeHtml(report.run_id)} &middot; ${escapeHtml(report.generated_at)}</p>
${report.profile ? profileSection(report.profile) : ''}
<h2>Summary</h2>
<p>Findings: ${escapeHtml(describeCounts(s))}${report.profile ? ' (each failed check is one, and so is each observation no check judges)' : ''}.</p>
<div class="cards">${card('error', s.errors, s.errors === 1 ? 'error' : 'errors')}${card('warning', s.warnings, s.warnings === 1 ? 'warning' : 'warnings')}${card('info', s.infos, s.infos === 1 ? 'note' : 'notes')}${card('', report.document.page_count ?? 0, report.document.page_count === 1 ? 'page' : 'pages')}</div>
${factsTable(report)}
${thumbnailGrid(report, thumbnails)}
<h2>Findings</h2>
${findingsTable(report.findings)}
<h2>Pages</h2>
${pagesTable(report, limits.htmlPages)}
</main></body></html>
`;
}
