import { describe, expect, it } from 'vitest';
import type { DocumentFacts, PageFacts } from '../../src/pdf/facts.js';
import { buildReport, documentFindings, pageFindings } from '../../src/worker/report.js';

const doc: DocumentFacts = {
  pdf_version: '1.7',
  page_count: 2,
  encrypted: false,
  title: 'T',
  author: null,
  producer: null,
  form: 'none',
  javascript: false,
  outline: false,
};
const page = (overrides: Partial<PageFacts> = {}): PageFacts => ({
  width_pt: 612,
  height_pt: 792,
  rotation: 0,
  fonts: [{ name: 'F', type: 'Type1', embedded: true }],
  has_text: true,
  images: [],
  annotations: 0,
  links: 0,
  ...overrides,
});

describe('preflight rules', () => {
  it('a clean page has no findings', () => {
    expect(pageFindings({ page: 1, status: 'ok', value: page() })).toEqual([]);
    expect(documentFindings(doc, [{ page: 1, status: 'ok', value: page() }])).toEqual([]);
  });

  it('flags images under 150 dpi but not at 150', () => {
    const facts = page({
      images: [
        { width_px: 100, height_px: 100, dpi: 149.9 },
        { width_px: 1, height_px: 1, dpi: 150 },
      ],
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
        value: page({ fonts: [{ name: 'Helvetica', type: 'Type1', embedded: false }] }),
      },
      { page: 2, status: 'failed', error: 'boom' },
    ]);
    expect(report.summary).toEqual({ errors: 2, warnings: 0, infos: 0, pages_ok: 1, pages_failed: 1 });
    expect(report.pages[1]).toMatchObject({ status: 'failed', error: 'boom', width_pt: null });
  });
});
