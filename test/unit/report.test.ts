import { describe, expect, it } from 'vitest';
import type { DocumentFacts, PageFacts } from '../../src/pdf/facts.js';
import {
  buildReport,
  documentFindings,
  type Finding,
  groupFindings,
  type Hit,
  pageFindings,
  pagesWorthAPicture,
} from '../../src/diagnosis/report.js';
import { font, image, plainDocument, plainPage } from '../helpers/report-facts.js';

const doc: DocumentFacts = { ...plainDocument, page_count: 2 };
const A4: [number, number, number, number] = [0, 0, 612, 792];
const page = (overrides: Partial<PageFacts> = {}): PageFacts =>
  plainPage(
    { width_pt: 612, height_pt: 792, boxes: { media: A4, crop: A4, bleed: A4, trim: A4, art: A4 } },
    overrides,
  );

describe('preflight rules', () => {
  it('a clean page has no findings', () => {
    expect(pageFindings({ page: 1, status: 'ok', value: page() })).toEqual([]);
    expect(documentFindings(doc, [{ page: 1, status: 'ok', value: page() }])).toEqual([]);
  });

  it('flags images under 150 ppi but not at 150', () => {
    const facts = page({
      images: [image(100, 100, 149.9), image(1, 1, 150)],
    });
    expect(pageFindings({ page: 3, status: 'ok', value: facts }).map((f) => f.code)).toEqual([
      'low_resolution_image',
    ]);
  });

  it('document-level findings', () => {
    const findings = documentFindings(
      { ...doc, encrypted: true, javascript: true, form: 'XFA', title: null },
      [
        { page: 1, status: 'ok', value: page() },
        { page: 2, status: 'ok', value: page({ width_pt: 595.28, height_pt: 841.89 }) },
      ],
    );
    expect(findings.map((f) => [f.code, f.severity])).toEqual([
      ['encrypted', 'warning'],
      ['javascript', 'warning'],
      ['form_fields', 'info'],
      ['missing_title', 'info'],
      ['mixed_page_sizes', 'warning'],
    ]);
  });

  it('summarises a report with a failed page', () => {
    const report = buildReport({ run_id: 'r', file_id: 'f', file_name: 'x.pdf', generated_at: 'now' }, doc, [
      {
        page: 1,
        status: 'ok',
        value: page({ fonts: [font('Helvetica', false)] }),
      },
      { page: 2, status: 'failed', error: 'boom' },
    ]);
    expect(report.summary).toEqual({ errors: 2, warnings: 0, infos: 0, pages_ok: 1, pages_failed: 1 });
    expect(report.pages[1]).toMatchObject({ status: 'failed', error: 'boom', width_pt: null });
  });
});

describe('a finding lists each of its pages once, ascending', () => {
  it('five images of one size on one page are one finding on page 1, not on pages 1, 1, 1, 1, 1', () => {
    const report = buildReport({ run_id: 'r', file_id: 'f', file_name: 'x.pdf', generated_at: 'now' }, doc, [
      {
        page: 1,
        status: 'ok',
        value: page({ images: Array.from({ length: 5 }, () => image(104, 71, 88.1)) }),
      },
      { page: 2, status: 'ok', value: page() },
    ]);
    const lowResolution = report.findings.filter((f) => f.code === 'low_resolution_image');
    expect(lowResolution).toHaveLength(1);
    expect(lowResolution[0]).toMatchObject({ page: 1, pages: [1] });
    expect(report.summary.warnings).toBe(1);
  });

  it('hits in any order, repeated, become sorted pages without repeats', () => {
    const hit = (page: number): Hit => ({ code: 'font_not_embedded', severity: 'error', page, message: 'm' });
    expect(groupFindings([3, 1, 3, 2, 1].map(hit))).toEqual([
      { code: 'font_not_embedded', severity: 'error', page: 1, pages: [1, 2, 3], message: 'm' },
    ]);
  });
});

describe('the pages report.html pictures', () => {
  const finding = (page: number, code: string, severity: Finding['severity'], message = code): Hit => ({
    code,
    severity,
    page,
    message,
  });

  it('one per error or warning code, on its first page, most severe first; notes and the document never', () => {
    const findings: Hit[] = [
      ...[1, 2, 3, 4].map((p) => finding(p, 'font_not_embedded', 'error', 'Font Helvetica is not embedded')),
      finding(3, 'font_not_embedded', 'error', 'Font Courier is not embedded'),
      { code: 'missing_title', severity: 'warning', page: null, message: 'No title' },
      finding(6, 'image_only_page', 'warning'),
      finding(8, 'image_only_page', 'warning'),
      finding(5, 'low_resolution_image', 'warning'),
      finding(7, 'rotated_page', 'info'),
    ];
    // Courier's page 3 is the same check as Helvetica's page 1: one picture
    expect(pagesWorthAPicture(groupFindings(findings), 12)).toEqual([1, 6, 5]);
  });

  it('a page that could not be parsed is not drawn: drawing would fail the same way', () => {
    const findings: Hit[] = [
      finding(2, 'page_unreadable', 'error', 'The page could not be parsed: out of memory'),
      finding(4, 'image_only_page', 'warning'),
    ];
    expect(pagesWorthAPicture(groupFindings(findings), 12)).toEqual([4]);
  });

  it('REPORT_THUMBNAILS bounds them: 0 pictures nothing, 2 stops at two', () => {
    const findings = ['font_not_embedded', 'image_only_page', 'low_resolution_image'].map((code, i) =>
      finding(i + 1, code, 'warning'),
    );
    expect(pagesWorthAPicture(groupFindings(findings), 0)).toEqual([]);
    expect(pagesWorthAPicture(groupFindings(findings), 2)).toEqual([1, 2]);
    expect(pagesWorthAPicture(groupFindings(findings), 3)).toEqual([1, 2, 3]);
  });
});
