import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf, uploadPdf, waitForRun } from '../helpers/files.js';
import { type Harness, startHarness } from '../helpers/harness.js';

/** The profile targets end to end: options stored and kept, the profile in report.json, the verdict in report.html. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    POINTS_PER_PAGE_PRINT: '3',
    POINTS_PER_PAGE_ACCESSIBILITY: '4',
    PRINT_MIN_PPI: '300',
  });
});
afterAll(async () => {
  await h.close();
});

interface Check {
  id: string;
  severity: string;
  status: string;
  pages: number[];
  specification?: string;
  rules?: { clause: string; test: number; status: string }[];
}

async function create(fileId: string, target: string, options?: object) {
  return h.request('POST', '/api/open/runs', {
    json: { file_id: fileId, target, ...(options ? { options } : {}) },
  });
}

async function profileOf(runId: string) {
  const report = await h.request('GET', `/api/open/runs/${runId}/files/report.json`);
  expect(report.status).toBe(200);
  return JSON.parse(report.text) as {
    profile: {
      name: string;
      title: string;
      verdict: string;
      checks: Check[];
      judged_as?: unknown;
      matterhorn?: { checkpoint: string; status: string; conditions: { how: string; status: string }[] }[];
    };
    findings: { code: string; page: number | null; pages: number[] }[];
    document: { rule_failures?: unknown[] };
    pages: { rule_failures?: unknown[] }[];
  };
}

describe('profile targets', () => {
  it('pdf-print with min_ppi: the option is stored, judged, shown in report.html, and kept by a rerun', async () => {
    const fileId = await uploadPdf(h, readPdf('profiles/print-rgb-lowres-unembedded.pdf'));
    const created = await create(fileId, 'pdf-print', { min_ppi: 150 });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ target: 'pdf-print', options: { min_ppi: 150 } });
    const run = await waitForRun(h, created.body.data.id);
    expect(run).toMatchObject({ status: 'succeeded', points_consumed: 3, options: { min_ppi: 150 } });
    const { profile } = await profileOf(run.id);
    expect(profile.name).toBe('pdf-print');
    expect(profile.verdict).toBe('fail');
    const status = Object.fromEntries(profile.checks.map((c) => [c.id, c.status]));
    // at 150 ppi the 100 ppi image is only a warning; the unembedded font is the error
    expect(status).toMatchObject({
      image_resolution_critical: 'pass',
      image_resolution: 'fail',
      fonts_embedded: 'fail',
    });

    const html = await h.request('GET', `/api/open/runs/${run.id}/files/report.html`);
    expect(html.text).toContain('<div class="verdict fail"><b>FAIL</b>');
    expect(html.text.indexOf('verdict fail')).toBeLessThan(html.text.indexOf('<h2>Summary</h2>'));

    const rerun = await h.request('POST', `/api/open/runs/${run.id}/rerun`, { json: {} });
    expect(rerun.status, rerun.text).toBe(200);
    expect(rerun.body.data).toMatchObject({ attempt: 2, options: { min_ppi: 150 } });
    const listed = await h.request('GET', '/api/open/runs?target=pdf-print');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toContain(run.id);
  });

  it('pdf-archive passes a PDF/A-2b file; pdf-accessibility passes a tagged one and prices its own pages', async () => {
    const archive = await create(
      await uploadPdf(h, readPdf('profiles/archive-pdfa2b-ghostscript.pdf')),
      'pdf-archive',
    );
    const accessible = await create(
      // LibreOffice's PDF/UA export (the conformance corpus's conforming base): tagged, and it claims PDF/UA-1
      await uploadPdf(h, readPdf('conformance/ua-pass-libreoffice.pdf')),
      'pdf-accessibility',
    );
    const [a, b] = await Promise.all([
      waitForRun(h, archive.body.data.id),
      waitForRun(h, accessible.body.data.id),
    ]);
    expect(a).toMatchObject({ status: 'succeeded', options: {} });
    expect(b).toMatchObject({ status: 'succeeded', points_consumed: 4 });
    const archived = await profileOf(a.id);
    expect(archived.profile).toMatchObject({ name: 'pdf-archive', verdict: 'pass' });
    // judged by the published rules of every part, read in the document's task and each page's: none of
    // PDF/A-2's fails here (the file is no PDF/A-3 file, so a rule of ISO 19005-3 does)
    const failures = archived.document.rule_failures as { specification: string }[];
    expect(failures.filter((f) => f.specification === 'ISO 19005-2')).toEqual([]);
    expect(failures.some((f) => f.specification === 'ISO 19005-3')).toBe(true);
    expect(archived.pages.every((p) => Array.isArray(p.rule_failures))).toBe(true);
    const judgedChecks = archived.profile!.checks.filter((c) => c.rules);
    expect(judgedChecks.length).toBeGreaterThan(30);
    expect(judgedChecks.every((c) => c.specification === 'ISO 19005-2')).toBe(true);
    const accessibility = await profileOf(b.id);
    expect(accessibility.profile).toMatchObject({ name: 'pdf-accessibility', verdict: 'pass' });
    // judged by ISO 14289-1's rules only: no PDF/A rule is read for it
    const uaFailures = accessibility.document.rule_failures as { specification: string }[];
    expect(uaFailures).toEqual([]);
    const uaChecks = accessibility.profile!.checks.filter((c) => c.rules);
    expect(uaChecks.length).toBeGreaterThan(30);
    expect(uaChecks.every((c) => c.specification === 'ISO 14289-1')).toBe(true);
    // the Matterhorn Protocol's view: every checkpoint, none failed, the person's conditions to review
    const matterhorn = accessibility.profile!.matterhorn!;
    expect(matterhorn.map((cp) => cp.checkpoint)).toEqual(
      Array.from({ length: 31 }, (_, i) => String(i + 1).padStart(2, '0')),
    );
    expect(matterhorn.some((cp) => cp.status === 'fail')).toBe(false);
    const conditions = matterhorn.flatMap((cp) => cp.conditions);
    expect(conditions.filter((c) => c.how === 'human').every((c) => c.status === 'review')).toBe(true);
    expect(conditions.some((c) => c.status === 'pass')).toBe(true);
  });

  it('pdf-preflight has no profile, and a font missing from every page is one finding listing the pages', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Courier);
    for (let i = 0; i < 5; i++) doc.addPage([300, 300]).drawText(`page ${i + 1}`, { x: 20, y: 200, font });
    const run = await waitForRun(
      h,
      (await create(await uploadPdf(h, await doc.save()), 'pdf-preflight')).body.data.id,
    );
    const report = await profileOf(run.id);
    expect(report).not.toHaveProperty('profile');
    expect(report.document).not.toHaveProperty('rule_failures');
    expect(report.pages[0]).not.toHaveProperty('rule_failures');
    const missing = report.findings.filter((f) => f.code === 'font_not_embedded');
    expect(missing).toEqual([expect.objectContaining({ page: 1, pages: [1, 2, 3, 4, 5] })]);
  });

  it('pdf-archive with pdfa_part: the report holds the file to that part and says why', async () => {
    const fileId = await uploadPdf(h, readPdf('profiles/archive-pdfa2b-ghostscript.pdf'));
    const created = await create(fileId, 'pdf-archive', { pdfa_part: 1 });
    expect(created.status, created.text).toBe(201);
    const run = await waitForRun(h, created.body.data.id);
    expect(run).toMatchObject({ status: 'succeeded', options: { pdfa_part: 1 } });
    const { profile } = await profileOf(run.id);
    expect(profile.judged_as).toEqual({ part: 1, basis: 'option', standard: 'ISO 19005-1' });
    expect(profile.title).toMatch(/^PDF\/A-1b requirements checked, as the run asked/);
    const html = await h.request('GET', `/api/open/runs/${run.id}/files/report.html`);
    expect(html.text).toContain('ISO 19005-1 6.3.4');
  });

  it('an option the target does not take is a 422 at body.options, and nothing is created', async () => {
    const fileId = await uploadPdf(h, readPdf('profiles/accessibility-untagged.pdf'));
    const before = (await h.request('GET', '/api/open/runs')).body.total;
    const refused = await create(fileId, 'pdf-accessibility', { min_ppi: 150 });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: 'validation_error' });
    expect(refused.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'options', 'min_ppi'], type: 'extra_forbidden' }),
    ]);
    const unknown = await create(fileId, 'pdf-print', { dpi: 300 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({
      loc: ['body', 'options', 'dpi'],
      type: 'extra_forbidden',
    });
    const bounds = await create(fileId, 'pdf-print', { min_ppi: 0 });
    expect(bounds.status).toBe(422);
    expect(bounds.body.detail[0].loc).toEqual(['body', 'options', 'min_ppi']);
    const atBounds = await create(fileId, 'pdf-print', { min_ppi: 4800, cmyk: true });
    expect(atBounds.status, atBounds.text).toBe(201);
    const part = await create(fileId, 'pdf-print', { pdfa_part: 1 });
    expect(part.body.detail[0]).toMatchObject({
      loc: ['body', 'options', 'pdfa_part'],
      type: 'extra_forbidden',
    });
    const noSuchPart = await create(fileId, 'pdf-archive', { pdfa_part: 4 });
    expect(noSuchPart.status).toBe(422);
    expect(noSuchPart.body.detail[0].loc).toEqual(['body', 'options', 'pdfa_part']);
    expect((await h.request('GET', '/api/open/runs')).body.total).toBe(before + 1);
  });
});
