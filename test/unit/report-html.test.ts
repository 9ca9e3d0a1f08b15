import { describe, expect, it } from 'vitest';
import type { PageFacts } from '../../src/pdf/facts.js';
import { judge, type ProfileName } from '../../src/diagnosis/profiles.js';
import { PRINT_BASIS } from '../../src/diagnosis/print.js';
import { buildReport, type PageOutcome, type PreflightReport } from '../../src/diagnosis/report.js';
import { renderReportHtml } from '../../src/diagnosis/report-html.js';
import { font, image, plainDocument, plainPage } from '../helpers/report-facts.js';

/**
 * report.html as a reader takes it, for every target: its counts agree with report.json, its words with
 * its verdict, and each problem it names comes with what to do about it.
 */

const doc = plainDocument;
const A4: [number, number, number, number] = [0, 0, 595, 842];
/** Trimmed 10 pt inside, bled 10 pt beyond (3.5 mm): what pdf-print asks. */
const BOXED = { media: A4, crop: A4, bleed: A4, trim: [10, 10, 585, 832] as typeof A4, art: A4 };
const page = (overrides: Partial<PageFacts> = {}): PageFacts =>
  plainPage({ width_pt: 595, height_pt: 842, boxes: BOXED }, overrides);

const ids = { run_id: 'r', file_id: 'f', file_name: 'x.pdf', generated_at: 'now' };

/** The report a run of `target` writes, as the worker builds it (src/worker/execute.ts). */
function reportOf(
  target: ProfileName | 'pdf-preflight',
  pages: PageFacts[],
  document = doc,
): PreflightReport {
  const outcomes: PageOutcome[] = pages.map((value, i) => ({ page: i + 1, status: 'ok', value }));
  return buildReport(
    ids,
    { ...document, page_count: pages.length },
    outcomes,
    target === 'pdf-preflight' ? undefined : (facts) => judge(target, facts, {}, { printMinPpi: 300 }),
  );
}

/** A picture for each page: report.html only embeds the bytes. */
const pictures = (...pages: number[]) => new Map(pages.map((p) => [p, new Uint8Array([1, 2, 3])]));
const html = (report: PreflightReport, ...pictured: number[]) =>
  renderReportHtml(report, pictures(...pictured), { thumbnails: 12, htmlPages: 500 });
/** The visible text, tags dropped. */
const text = (page: string) => page.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, ' ');

describe("report.html's counts are report.json's", () => {
  it('a page caption counts the findings on that page, as the summary counts findings', () => {
    // five images of one size at one low resolution: one finding, on page 1, once
    const report = reportOf('pdf-preflight', [
      page({ images: Array.from({ length: 5 }, () => image(104, 71, 88.1)) }),
    ]);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 1, infos: 0 });
    const page1 = /<figcaption><b>Page 1<\/b> &middot; ([^<]*)<\/figcaption>/.exec(html(report, 1))?.[1];
    expect(page1).toBe('findings: 0 errors, 1 warning, 0 notes');
    expect(text(html(report, 1))).toContain('Findings: 0 errors, 1 warning, 0 notes.');
  });
});

describe('report.html says what its verdict says', () => {
  const lowBleed = { ...BOXED, bleed: [9, 9, 586, 833] as typeof A4 };

  it('a PASS report pictures its warnings as warnings, never as "Pages that fail"', () => {
    const report = reportOf('pdf-print', [page({ boxes: lowBleed })]);
    expect(report.profile?.verdict).toBe('pass');
    const page1 = html(report, 1);
    expect(page1).not.toContain('Pages that fail');
    expect(page1).toContain('<h2>Pages with warnings</h2>');
  });

  it('a FAIL report pictures the pages that fail as such', () => {
    const report = reportOf('pdf-print', [page({ fonts: [font('Helvetica', false)] })]);
    expect(report.profile?.verdict).toBe('fail');
    expect(html(report, 1)).toContain('<h2>Pages that fail</h2>');
  });

  it('no picture, no heading', () => {
    const report = reportOf('pdf-print', [page()]);
    expect(html(report)).not.toMatch(/Pages that fail|Pages with warnings/);
  });

  it('a failed check of severity warning or info is labelled by its severity; only an error is "Fail"', () => {
    const report = reportOf('pdf-print', [
      page({ spot_colors: ['PANTONE 021 C'], boxes: lowBleed, fonts: [font('Helvetica', false)] }),
    ]);
    const statusOf = (id: string) =>
      new RegExp(`<td class="status [^"]*">([^<]*)</td><td><code>${id}</code>`).exec(html(report))?.[1];
    expect(statusOf('spot_colors')).toBe('Note');
    expect(statusOf('trim_and_bleed')).toBe('Warning');
    expect(statusOf('fonts_embedded')).toBe('Fail');
    expect(statusOf('pages_readable')).toBe('Pass');
  });

  it("each target's page is titled by what it checks", () => {
    const titles = Object.fromEntries(
      (['pdf-preflight', 'pdf-print', 'pdf-archive', 'pdf-accessibility'] as const).map((target) => {
        const page1 = html(reportOf(target, [page()]));
        return [target, [/<h1>([^<]*)<\/h1>/.exec(page1)?.[1], /<title>([^:<]*):/.exec(page1)?.[1]]];
      }),
    );
    expect(titles).toEqual({
      'pdf-preflight': ['Preflight report', 'Preflight report'],
      'pdf-print': ['Print check', 'Print check'],
      'pdf-archive': ['Archive (PDF/A) check', 'Archive (PDF/A) check'],
      'pdf-accessibility': ['Accessibility (PDF/UA) check', 'Accessibility (PDF/UA) check'],
    });
  });
});

describe('each print check says what it rests on', () => {
  it('no clause (the profile is our own), and a basis report.html shows in its place', () => {
    const report = reportOf('pdf-print', [page()]);
    const page1 = html(report);
    expect(page1).toContain('<th>Basis</th>');
    for (const check of report.profile!.checks) {
      expect(check.clause, check.id).toBeNull();
      expect(PRINT_BASIS[check.id], check.id).toBeTruthy();
      expect(page1).toContain(`<code>${check.id}</code></td><td class="basis">`);
    }
  });
});

/** A message that names a problem and then, in a sentence of its own, what to do. */
const SAYS_WHAT_TO_DO = /\S\. [A-Z][^]*\S$/;

describe('a problem comes with what to do about it, in ppi', () => {
  const everything = [
    page({
      fonts: [font('Helvetica', false)],
      images: [image(100, 100, 60), image(400, 400, 200)],
      boxes: { ...BOXED, trim: A4 },
      transparency: true,
      spot_colors: ['PANTONE 021 C'],
    }),
    page({ has_text: false, images: [image(10, 10, 300)], width_pt: 612, height_pt: 792 }),
    page({ has_text: false, fonts: [] }),
  ];
  const troubled = { ...doc, encrypted: true, javascript: true, form: 'AcroForm' as const, title: null };

  it("every pdf-preflight finding's message says what to do", () => {
    const report = reportOf('pdf-preflight', everything, troubled);
    const codes = report.findings.map((f) => f.code).sort();
    expect(codes).toEqual([
      'blank_page',
      'encrypted',
      'font_not_embedded',
      'form_fields',
      'image_only_page',
      'javascript',
      'low_resolution_image',
      'missing_title',
      'mixed_page_sizes',
    ]);
    for (const finding of report.findings) expect(finding.message, finding.code).toMatch(SAYS_WHAT_TO_DO);
  });

  it("every failed pdf-print check's message says what to do", () => {
    const report = reportOf('pdf-print', everything, {
      ...doc,
      output_intents: [
        {
          subtype: 'GTS_PDFX',
          identifier: 'FOGRA39',
          components: 4,
          profile_class: 'prtr',
          profile_color_space: 'CMYK',
        },
      ],
    });
    const failed = report.profile!.checks.filter((c) => c.status === 'fail');
    expect(failed.map((c) => c.id).sort()).toEqual([
      'fonts_embedded',
      'image_resolution',
      'image_resolution_critical',
      'rgb_in_cmyk_job',
      'spot_colors',
      'transparency',
      'trim_and_bleed',
    ]);
    for (const check of failed) expect(check.message, check.id).toMatch(SAYS_WHAT_TO_DO);
  });

  it('resolution is pixels per inch everywhere: no "dpi" in a message or the page', () => {
    for (const target of ['pdf-preflight', 'pdf-print'] as const) {
      const report = reportOf(target, everything, troubled);
      const messages = [...report.findings, ...(report.profile?.checks ?? [])].map((f) => f.message);
      expect(messages.filter((m) => /\bdpi\b/i.test(m))).toEqual([]);
      expect(messages.some((m) => /\bppi\b/.test(m))).toBe(true);
      expect(text(html(report, 1))).not.toMatch(/\bdpi\b/i);
    }
  });
});

describe('a PDF/UA report groups its checks by Matterhorn checkpoint', () => {
  it('names the failed conditions with their checks, and lists apart what a person is to review', () => {
    const judged = {
      ...doc,
      rule_failures: [
        {
          specification: 'ISO 14289-1' as const,
          clause: '5',
          test: 1,
          objects: 1,
          examples: ['the catalog: no PDF/UA identification'],
        },
      ],
    };
    const report = reportOf('pdf-accessibility', [{ ...page(), rule_failures: [] }], judged);
    const matterhorn = report.profile!.matterhorn!;
    expect(matterhorn.find((cp) => cp.checkpoint === '06')).toMatchObject({ status: 'fail' });
    const page1 = text(html(report));
    expect(page1).toMatch(/Matterhorn Protocol/);
    expect(page1).toMatch(/Fail\s+06\s+Metadata\s+06-002 .*\(\s*xmp_pdfua_claim\s*\)/);
    const review = matterhorn.flatMap((cp) => cp.conditions).filter((c) => c.how === 'human');
    expect(review.every((c) => c.status === 'review')).toBe(true);
    expect(page1).toMatch(new RegExp(`To review by a person \\(${review.length} conditions\\)`));
    expect(page1).toMatch(/13-001/);
    // a report read without the rules has no Matterhorn view: nothing was judged to group
    expect(reportOf('pdf-accessibility', [page()]).profile!.matterhorn).toBeUndefined();
  });
});
