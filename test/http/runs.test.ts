import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfPath, readPdf, sendUpload, uploadPdf, waitForRun } from '../helpers/files.js';
import { stencilMasks } from '../helpers/hostile-pdfs.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { greyPng } from '../helpers/png.js';
import { engine } from '../helpers/engine.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    // far above what a page takes even when another suite shares the cores: the decompression bomb must
    // meet the memory cap (about 3 s of inflating alone, 5 s and more beside another suite) before the clock
    TASK_TIMEOUT_MS: '20000',
    POINTS_PER_PAGE_PREFLIGHT: '2',
    POINTS_PER_PAGE_TEXT: '1',
    MAX_PAGES: '40',
  });
});
afterAll(async () => {
  await h.close();
});

interface Finding {
  code: string;
  severity: string;
  page: number | null;
  pages: number[];
}

async function runOn(bytes: Uint8Array, target = 'pdf-preflight', fileName = 'doc.pdf') {
  const fileId = await uploadPdf(h, bytes, { fileName });
  const created = await h.request('POST', '/api/open/runs', { json: { file_id: fileId, target } });
  expect(created.status, created.text).toBe(201);
  return waitForRun(h, created.body.data.id);
}

async function download(runId: string, name: string, token?: string) {
  return h.request('GET', `/api/open/runs/${runId}/files/${name}`, { token });
}

const codes = (findings: Finding[], code: string) => findings.filter((f) => f.code === code);

/** Ground truth from poppler and qpdf for the shared PDFs. */
const manifest = readFileSync(pdfPath('MANIFEST.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map((c) => ({
    file: c[0]!,
    kind: c[5]!,
    pages: Number(c[7]),
    encrypted: c[9],
    requiresPassword: c[10],
    form: c[12],
    javascript: c[13],
    fontsEmbedded: Number(c[18]),
    fontsNotEmbedded: Number(c[19]),
    // pdfimages lists an image's soft mask as a row of its own (type smask); the report counts placed images
    images: Number(c[21]) - Number(c[26] || 0),
    textPages: Number(c[22]),
  }));

/**
 * The fonts pdffonts lists that no text draws with (facts-truth.json, pdftohtml's fonts against pdffonts'):
 * fonts used for no rendering are not the report's (an empty form field's /DA font is one).
 */
const undrawnFonts = (() => {
  const truth = JSON.parse(readFileSync(pdfPath('facts-truth.json'), 'utf8')) as Record<
    string,
    { fonts?: { emb: boolean; drawn?: boolean }[] }
  >;
  return (file: string, embedded: boolean) =>
    (truth[file]?.fonts ?? []).filter((f) => f.drawn === false && f.emb === embedded).length;
})();

// What only the parser decides (facts poppler agrees with, its defences) runs on the embedded default alone:
// no storage engine takes part in it, and the other projects run the rest of this file for their engines.
const parserOnly = engine === 'sqlite';

describe.runIf(parserOnly)('pdf-preflight on real documents agrees with poppler', () => {
  const readable = manifest
    .filter((m) => m.file.startsWith('real/') || m.file.startsWith('derived/'))
    .filter((m) => m.requiresPassword === 'no');

  it.each(readable.map((m) => [m.file, m] as const))('%s', async (_file, m) => {
    const run = await runOn(readPdf(m.file), 'pdf-preflight', m.file.split('/')[1]);
    expect(run).toMatchObject({
      status: 'succeeded',
      progress: 100,
      total_tasks: m.pages + 1,
      completed_tasks: m.pages + 1,
      failed_tasks: 0,
      points_consumed: 2 * m.pages,
      output_files: ['report.json', 'report.html'],
      error: null,
      attempt: 1,
    });
    expect(Date.parse(run.started_at)).toBeLessThanOrEqual(Date.parse(run.completed_at));
    const report = (await download(run.id, 'report.json')).body;
    expect(report.document.page_count).toBe(m.pages);
    expect(report.document.encrypted).toBe(m.encrypted === 'yes');
    expect(codes(report.findings, 'encrypted').length).toBe(m.encrypted === 'yes' ? 1 : 0);
    const fonts = new Map<string, boolean>();
    for (const page of report.pages) for (const f of page.fonts) fonts.set(f.name, f.embedded);
    expect([...fonts.values()].filter((e) => e).length, 'embedded fonts').toBe(m.fontsEmbedded);
    expect([...fonts.values()].filter((e) => !e).length, 'fonts not embedded').toBe(m.fontsNotEmbedded);
    const images = report.pages.reduce((n: number, p: { images: unknown[] }) => n + p.images.length, 0);
    expect(images, 'images').toBe(m.images);
    const textPages = report.pages.filter((p: { has_text: boolean }) => p.has_text).length;
    expect(textPages, 'pages with text').toBe(m.textPages);
    expect(report.document.form).toBe(m.form === 'none' ? 'none' : m.form);
    expect(report.document.javascript).toBe(m.javascript === 'yes');
    expect(codes(report.findings, 'javascript').length).toBe(m.javascript === 'yes' ? 1 : 0);
    expect(codes(report.findings, 'font_not_embedded').length > 0).toBe(
      m.fontsNotEmbedded - undrawnFonts(m.file, false) > 0,
    );
    // one finding per check and subject, with its pages: a scan is one image_only_page over every page
    const imageOnly = codes(report.findings, 'image_only_page').flatMap((f: Finding) => f.pages);
    expect(imageOnly.length).toBe(m.textPages === 0 ? m.pages : 0);
    expect(report.summary.pages_ok).toBe(m.pages);
    const html = await download(run.id, 'report.html');
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('<h2>Findings</h2>');
  });

  it('finds the scanned pages at their resolution', async () => {
    const run = await runOn(readPdf('derived/scanned-6p-imageonly__from-install.en.pdf'));
    const report = (await download(run.id, 'report.json')).body;
    for (const page of report.pages) {
      expect(page.has_text).toBe(false);
      expect(page.images).toEqual([
        {
          width_px: 1241,
          height_px: 1754,
          dpi: 150.1,
          // as pdfimages -list says: rgb, 3 components of 8 bits, jpeg
          color_space: 'rgb',
          icc_components: null,
          bits_per_component: 8,
          encoding: 'dct',
        },
      ]);
    }
  });
});

describe('pdf-preflight on generated PDFs with known properties', () => {
  it('mixed sizes, rotation, a non-embedded font, a low-resolution image, a blank page', async () => {
    const pdf = await PDFDocument.create();
    pdf.setTitle('Known properties');
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const a4 = pdf.addPage([595.28, 841.89]);
    a4.drawText('Hello preflight', { x: 50, y: 700, font, size: 12 });
    const letter = pdf.addPage([612, 792]);
    letter.setRotation(degrees(90));
    letter.drawText('Rotated', { x: 50, y: 700, font, size: 12 });
    // a 10x10 px image stretched over 144 pt (2 inches): 5 dpi
    const png = await pdf.embedPng(greyPng(10, 10));
    pdf.addPage([595.28, 841.89]).drawImage(png, { x: 100, y: 100, width: 144, height: 144 });
    pdf.addPage([595.28, 841.89]);
    const run = await runOn(await pdf.save());
    expect(run).toMatchObject({
      status: 'succeeded',
      total_tasks: 5,
      completed_tasks: 5,
      points_consumed: 8,
    });
    const report = (await download(run.id, 'report.json')).body;
    const found = report.findings
      .flatMap((f: Finding) => (f.pages.length ? f.pages.map((p) => `${f.code}@${p}`) : [`${f.code}@doc`]))
      .sort();
    expect(found).toEqual(
      [
        'blank_page@4',
        'font_not_embedded@1',
        'font_not_embedded@2',
        'image_only_page@3',
        'low_resolution_image@3',
        'mixed_page_sizes@doc',
        'rotated_page@2',
      ].sort(),
    );
    expect(report.pages[2].images).toEqual([
      expect.objectContaining({
        width_px: 10,
        height_px: 10,
        dpi: 5,
        // pdf-lib embeds every PNG as DeviceRGB, grey ones too (pdfimages -list says rgb)
        color_space: 'rgb',
        bits_per_component: 8,
      }),
    ]);
    expect(report.pages[0].fonts).toEqual([
      {
        name: 'Helvetica',
        type: 'Type1',
        embedded: false,
        subset: false,
        to_unicode: false,
        encoding: 'WinAnsiEncoding',
        unicode_mapping: 'standard_encoding',
        used_for_rendering: true,
      },
    ]);
    expect(report.document.title).toBe('Known properties');
  });
});

/** Files this process holds open (Linux: the targets of /proc/self/fd that are paths). */
function openFilePaths(): Set<string> {
  const paths = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith('/')) paths.add(target);
    } catch {
      // closed while listed
    }
  }
  return paths;
}

describe.runIf(process.platform === 'linux')('a run lets go of its file', () => {
  it('once a run has finished, no parser thread holds its PDF open (an object store deletes its scratch copy)', async () => {
    const before = openFilePaths();
    const run = await runOn(readPdf('real/cups-filters__classified.pdf'));
    expect(run.status).toBe('succeeded');
    // the threads close it once their current task ends: within moments of the run's finish
    let held: string[] = [];
    for (let attempt = 0; attempt < 50; attempt++) {
      held = [...openFilePaths()].filter((p) => !before.has(p) && !p.startsWith('/dev/'));
      if (held.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(held).toEqual([]);
  });
});

describe("a run's page count", () => {
  it("goes by the document's own count when the upload's differs (a file counted by another version)", async () => {
    const bytes = readPdf('real/auto-multiple-choice-doc-pdf__sample-amc.pdf');
    const fileId = await uploadPdf(h, bytes);
    // as if an older reader had counted the file at its upload: the run reads its pages ahead by that count
    await h.query('UPDATE files SET page_count = ? WHERE id = ?', [3, fileId]);
    const created = await h.request('POST', '/api/open/runs', {
      json: { file_id: fileId, target: 'pdf-preflight' },
    });
    expect(created.status, created.text).toBe(201);
    const run = await waitForRun(h, created.body.data.id);
    expect(run).toMatchObject({ status: 'succeeded', total_tasks: 31, completed_tasks: 31, failed_tasks: 0 });
    const report = (await download(run.id, 'report.json')).body;
    expect(report.document.page_count).toBe(30);
    expect(report.pages.map((p: { page: number }) => p.page)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
  });
});

describe('images and page limits', () => {
  it('stencil masks count as images, one per use, as pdfimages lists them', async () => {
    const run = await runOn(stencilMasks(147));
    const report = (await download(run.id, 'report.json')).body;
    expect(report.pages[0].images).toHaveLength(147);
    expect(report.pages[0].images[0]).toMatchObject({ width_px: 8, height_px: 8 });
  });

  async function blankPages(count: number) {
    const pdf = await PDFDocument.create();
    for (let i = 0; i < count; i++) pdf.addPage([300, 300]);
    return pdf.save();
  }

  it('MAX_PAGES: a document of exactly the limit is accepted, one page more is refused at complete', async () => {
    await uploadPdf(h, await blankPages(40));
    const { upload_id } = await sendUpload(h, await blankPages(41));
    const refused = await h.request('POST', '/api/open/uploads/complete', { json: { upload_id } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: 'too_many_pages',
      message: 'The PDF has 41 pages; at most 40 are accepted',
    });
  });
});

describe('malformed input fails a task or the run, never the server', () => {
  it('a page-tree loop: the pages poppler finds are read, the looping one fails alone', async () => {
    // pdfinfo and mutool count 2 pages; the second is the page-tree node that refers to itself
    const run = await runOn(readPdf('malformed/circular-pages.pdf'));
    expect(run).toMatchObject({
      status: 'succeeded',
      total_tasks: 3,
      completed_tasks: 2,
      failed_tasks: 1,
      points_consumed: 2,
    });
    const report = (await download(run.id, 'report.json')).body;
    expect(report.pages.map((p: { status: string }) => p.status)).toEqual(['ok', 'failed']);
    expect(codes(report.findings, 'page_unreadable')).toHaveLength(1);
  });

  it.runIf(parserOnly)(
    'a decompression bomb fails its page at the memory cap; deep nesting is read as poppler reads it',
    async () => {
      const bomb = await uploadPdf(h, readPdf('malformed/flate-bomb-512MB.pdf'));
      const nested = await uploadPdf(h, readPdf('malformed/deep-nesting-content.pdf'));
      const [bombRun, nestedRun] = await Promise.all(
        [bomb, nested].map(
          async (file_id) => (await h.request('POST', '/api/open/runs', { json: { file_id } })).body.data.id,
        ),
      );
      const started = Date.now();
      const health = await h.request('GET', '/api/open/runs?limit=1');
      expect(health.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1000);
      const exploded = await waitForRun(h, bombRun);
      expect(exploded).toMatchObject({
        status: 'succeeded',
        total_tasks: 2,
        failed_tasks: 1,
        points_consumed: 0,
      });
      const report = (await download(bombRun, 'report.json')).body;
      expect(report.pages[0].error).toMatch(/used more than \d+ MB/);
      // 200,000 nested `q`: pdfinfo and pdffonts read it (one page of text in Helvetica), and so do we
      const deep = await waitForRun(h, nestedRun);
      expect(deep).toMatchObject({ status: 'succeeded', total_tasks: 2, failed_tasks: 0 });
      const deepReport = (await download(nestedRun, 'report.json')).body;
      expect(deepReport.pages[0]).toMatchObject({ status: 'ok', has_text: true });
    },
  );

  it('a password-protected PDF fails the run with a clear error and books nothing', async () => {
    const run = await runOn(readPdf('real/r-cran-pdftools__pdf-example-password.original.pdf'));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'The PDF is encrypted with a password and cannot be diagnosed',
      error_code: 'encrypted_pdf',
      points_consumed: 0,
      output_files: [],
      failed_tasks: 1,
      progress: 100,
    });
  });
});

describe('pdf-text', () => {
  it('extracts text per page', async () => {
    const run = await runOn(readPdf('real/auto-multiple-choice-doc-pdf__sample-amc.pdf'), 'pdf-text');
    expect(run).toMatchObject({
      status: 'succeeded',
      total_tasks: 31,
      points_consumed: 30,
      output_files: ['text.txt', 'pages.json'],
    });
    const text = await download(run.id, 'text.txt');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.text.split('\f')).toHaveLength(30);
    expect(text.text).toMatch(/auto-multiple-choice|AMC/i);
    const pages = (await download(run.id, 'pages.json')).body;
    expect(pages.pages).toHaveLength(30);
    expect(pages.pages.every((p: { status: string }) => p.status === 'ok')).toBe(true);
    expect((await download(run.id, 'report.json')).status).toBe(404);
  });
});

describe('create, list, rerun', () => {
  let fileId: string;
  beforeAll(async () => {
    fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      fileName: 'Quarterly_100%_Report.pdf',
    });
  });

  it('creates a queued run with every field of the record', async () => {
    const res = await h.request('POST', '/api/open/runs', { json: { file_id: fileId } });
    expect(res.body.data).toMatchObject({
      tenant_id: h.tenant.tenant_id,
      user_id: h.tenant.user_id,
      created_by: h.tenant.user_id,
      created_by_type: 'user',
      target: 'pdf-preflight',
      file_id: fileId,
      input_file_name: 'Quarterly_100%_Report.pdf',
      attempt: 1,
      output_files: [],
    });
    expect(['queued', 'running']).toContain(res.body.data.status);
    await waitForRun(h, res.body.data.id);
  });

  it('an unknown or foreign file is 404', async () => {
    const unknown = await h.request('POST', '/api/open/runs', {
      json: { file_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.status).toBe(404);
    const foreign = await h.request('POST', '/api/open/runs', {
      json: { file_id: fileId },
      token: h.other.token,
    });
    expect(foreign.status).toBe(404);
  });

  it(
    'rerun re-executes the same id after it finished, and refuses while it is queued or running',
    { tags: ['two-processes'] },
    async () => {
      const created = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
      const early = await h.request('POST', `/api/open/runs/${created.id}/rerun`);
      expect(early.status).toBe(409);
      expect(early.body.error).toBe('run_not_finished');
      const first = await waitForRun(h, created.id);
      const rerun = await h.request('POST', `/api/open/runs/${created.id}/rerun`);
      expect(rerun.status).toBe(200);
      expect(rerun.body.data).toMatchObject({
        id: created.id,
        status: 'queued',
        progress: 0,
        total_tasks: 0,
        completed_tasks: 0,
        failed_tasks: 0,
        points_consumed: 0,
        output_files: [],
        started_at: null,
        completed_at: null,
        attempt: 2,
      });
      expect(rerun.body.data.queue_message_id).not.toBe(first.queue_message_id);
      const second = await waitForRun(h, created.id);
      expect(second).toMatchObject({ status: 'succeeded', attempt: 2, points_consumed: 2 });
      const ledger = await h.request(
        'GET',
        '/api/open/finance/transactions?transaction_type=tech&page_size=100',
      );
      const bookings = ledger.body.data.filter((t: { run_id: string }) => t.run_id === created.id);
      expect(bookings).toHaveLength(2);
      expect(bookings.every((t: { amount: number }) => t.amount === 20)).toBe(true);
      // every status change is one event, the rerun's too, with the run as the rerun left it
      const events = (await h.request('GET', '/api/open/events?limit=100')).body.data as {
        type: string;
        data: { object: { id: string; status: string; attempt: number } };
      }[];
      const mine = events.filter((e) => e.data.object.id === created.id).reverse();
      expect(mine.map((e) => e.type)).toEqual([
        'run.created',
        'run.started',
        'run.succeeded',
        'run.requeued',
        'run.started',
        'run.succeeded',
      ]);
      expect(mine[3]!.data.object).toMatchObject({ status: 'queued', attempt: 2 });
    },
  );

  it('lists newest first with filters, keyword search and page maths', async () => {
    const other = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      fileName: 'other_file.pdf',
    });
    const ids: string[] = [];
    for (const target of ['pdf-text', 'pdf-preflight', 'pdf-text']) {
      ids.push(
        (await h.request('POST', '/api/open/runs', { json: { file_id: other, target } })).body.data.id,
      );
    }
    for (const id of ids) await waitForRun(h, id);
    const all = await h.request('GET', '/api/open/runs?limit=2&offset=0');
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const total = all.body.total;
    expect(all.body).toMatchObject({ page: 1, page_size: 2, total_pages: Math.ceil(total / 2) });
    const second = await h.request('GET', '/api/open/runs?limit=2&offset=2');
    expect(second.body.page).toBe(2);
    expect(second.body.data[0].id).toBe(ids[0]);
    const past = await h.request('GET', `/api/open/runs?limit=2&offset=${total + 10}`);
    expect(past.body).toMatchObject({ data: [], total });

    const text = await h.request('GET', '/api/open/runs?target=pdf-text&keyword=OTHER_');
    expect(text.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[0]]);
    expect(text.body.total).toBe(2);
    const succeeded = await h.request(
      'GET',
      '/api/open/runs?status=succeeded&target=pdf-text&keyword=other_file',
    );
    expect(succeeded.body.total).toBe(2);
    // `%` and `_` are literal: "100%_" matches only the quarterly file, "_file%" matches nothing
    await waitForRun(
      h,
      (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data.id,
    );
    const literal = await h.request('GET', '/api/open/runs?keyword=100%25_');
    expect(
      literal.body.data.every((r: { input_file_name: string }) => r.input_file_name.includes('100%_')),
    ).toBe(true);
    expect(literal.body.total).toBeGreaterThan(0);
    const wildcard = await h.request('GET', '/api/open/runs?keyword=_file%25');
    expect(wildcard.body.total).toBe(0);
    const byId = await h.request('GET', `/api/open/runs?keyword=${ids[1]}`);
    expect(byId.body.data.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    // no stored name holds U+0000 (uploads refuse it): such a filter matches nothing, on either engine
    for (const query of ['keyword=%00', 'target=pdf-text%00', 'keyword=a%00b&status=succeeded']) {
      const nothing = await h.request('GET', `/api/open/runs?${query}`);
      expect(nothing.status, query).toBe(200);
      expect(nothing.body).toMatchObject({ data: [], total: 0, next_cursor: null });
    }
  });
});

describe('cursor pages over HTTP', () => {
  it('next_cursor leads through the list; a foreign or unknown cursor is 404', async () => {
    const fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
    for (let i = 0; i < 5; i++) {
      await waitForRun(
        h,
        (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data.id,
      );
    }
    const first = await h.request('GET', '/api/open/runs?limit=2');
    expect(first.body.next_cursor).toBe(first.body.data[1].id);
    const second = await h.request('GET', `/api/open/runs?limit=2&starting_after=${first.body.next_cursor}`);
    const byOffset = await h.request('GET', '/api/open/runs?limit=2&offset=2');
    expect(second.body.data.map((r: { id: string }) => r.id)).toEqual(
      byOffset.body.data.map((r: { id: string }) => r.id),
    );
    expect(second.body.total).toBe(first.body.total);
    const last = await h.request('GET', `/api/open/runs?limit=100&offset=${first.body.total - 1}`);
    expect(last.body.next_cursor).toBeNull();
    const third = await h.server.services.tenants.create('cursor-owner');
    const theirFile = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'), {
      token: third.token,
    });
    const theirs = (
      await h.request('POST', '/api/open/runs', { json: { file_id: theirFile }, token: third.token })
    ).body.data;
    const foreign = await h.request('GET', `/api/open/runs?starting_after=${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('not_found');
    const malformed = await h.request('GET', '/api/open/runs?starting_after=not-a-uuid');
    expect(malformed.status).toBe(422);
    await waitForRun(h, theirs.id, third.token);
  });
});

describe('tenant isolation of runs', () => {
  it("another tenant's run is not found anywhere and its list is empty", async () => {
    const fileId = await uploadPdf(h, readPdf('real/cups-filters__classified.pdf'));
    const run = (await h.request('POST', '/api/open/runs', { json: { file_id: fileId } })).body.data;
    await waitForRun(h, run.id);
    const other = h.other.token;
    expect((await h.request('GET', `/api/open/runs/${run.id}`, { token: other })).status).toBe(404);
    expect((await h.request('POST', `/api/open/runs/${run.id}/rerun`, { token: other })).status).toBe(404);
    expect((await download(run.id, 'report.json', other)).status).toBe(404);
    const list = await h.request('GET', `/api/open/runs?keyword=${run.id}`, { token: other });
    expect(list.body).toMatchObject({ data: [], total: 0 });
    expect((await h.request('GET', '/api/open/runs', { token: other })).body.total).toBe(0);
    // the owner's run is unchanged
    expect((await h.request('GET', `/api/open/runs/${run.id}`)).body.data.attempt).toBe(1);
  });
});
