import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { bearer, median, round, type Row } from './common.js';
import type { PreflightReport } from '../src/diagnosis/report.js';
import { factAgreement } from './bare-engine.js';
import { type DebianPdf, debianPdfs } from './debian-pdfs.js';
import { popplerSeconds } from './poppler.js';
import { startApi } from './processes.js';
import { createTenant } from './seed.js';

/** The packages of the quick run's subset: 1.8 MB to fetch, a short file, two manuals. */
const QUICK_PACKAGES = ['cups-filters', 'python-reportlab-doc', 'maint-guide'];
/** Uploads in flight at once, as a client with a folder of files sends them. */
const UPLOAD_LANES = 4;

interface RunView {
  id: string;
  status: string;
  started_at: string | null;
  completed_at: string | null;
}

/**
 * Scenario 14: preflight on a real mix of PDFs, timed the way a user waits. The set is 50 PDFs shipped in
 * Debian packages (bench/debian-pdfs.tsv: many small files of FPDF, cairo, Ghostscript, LibreOffice,
 * TCPDF, FOP, matplotlib; manuals of pdfTeX, xdvipdfmx, dvipdfmx, ReportLab, Ghostscript; Octave's manual
 * of 1,158 pages). A round uploads every file through the API, four at once, queues each file's run as its
 * upload completes, and ends when the last run completed (its report is then downloadable, which the round
 * checks). poppler's four tools take the same files on every core. Rounds alternate, ours then poppler's.
 */
export async function mixedSet(options: {
  quick: boolean;
  work: string;
  port: () => number;
  rounds: number;
  record: (row: Row) => void;
}): Promise<void> {
  const { quick, work, record } = options;
  const files = await debianPdfs(quick ? QUICK_PACKAGES : undefined);
  if ('missing' in files) {
    record({
      scenario: '14 mixed set',
      variant: 'PDFs from Debian packages',
      value: `not run: ${files.missing}`,
    });
    return;
  }
  const pages = files.reduce((sum, f) => sum + f.pages, 0);
  const set = `${files.length} files, ${pages} pages, ${round(files.reduce((s, f) => s + f.bytes, 0) / 2 ** 20, 1)} MiB`;
  const dir = path.join(work, 'mixed-set');
  const tenant = await createTenant(dir, 'mixed-set');
  const api = await startApi(dir, options.port());
  const headers = { ...bearer(tenant.token), 'content-type': 'application/json' };
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  const uploadAndQueue = async (pdf: DebianPdf): Promise<[string, DebianPdf]> => {
    const bytes = readFileSync(pdf.file);
    const upload = await call<{ upload_id: string; part_size: number; part_count: number }>(
      'POST',
      '/api/open/uploads',
      { file_name: path.basename(pdf.path), size_bytes: bytes.length },
    );
    for (let part = 1; part <= upload.part_count; part++) {
      const res = await fetch(`${api.url}/api/open/uploads/${upload.upload_id}/parts/${part}`, {
        method: 'PUT',
        headers: { ...bearer(tenant.token), 'content-type': 'application/octet-stream' },
        body: bytes.subarray((part - 1) * upload.part_size, part * upload.part_size),
      });
      if (!res.ok) throw new Error(`part ${part} of ${pdf.path}: ${res.status} ${await res.text()}`);
    }
    const file = await call<{ file_id: string }>('POST', '/api/open/uploads/complete', {
      upload_id: upload.upload_id,
    });
    const run = await call<{ id: string }>('POST', '/api/open/runs', {
      file_id: file.file_id,
      target: 'pdf-preflight',
    });
    return [run.id, pdf];
  };
  /**
   * One round: seconds from the first upload to the last run's completion; each run's own seconds (started
   * to completed) by file; and every report, as the API serves it.
   */
  const ours = async () => {
    const started = Date.now();
    const queue = [...files];
    const runs = new Map<string, DebianPdf>();
    await Promise.all(
      Array.from({ length: UPLOAD_LANES }, async () => {
        for (let pdf = queue.shift(); pdf; pdf = queue.shift()) {
          const [id, of] = await uploadAndQueue(pdf);
          runs.set(id, of);
        }
      }),
    );
    const deadline = Date.now() + 600_000;
    let finished: RunView[] = [];
    // the round's runs are the tenant's newest (at most 100 per page)
    while (finished.length < runs.size) {
      if (Date.now() > deadline) throw new Error('the mixed set did not finish within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const page = await call<RunView[]>('GET', `/api/open/runs?limit=${Math.min(100, runs.size)}`);
      finished = page.filter((r) => runs.has(r.id) && r.completed_at !== null);
    }
    const failed = finished.filter((r) => r.status !== 'succeeded');
    if (failed.length > 0) throw new Error(`${failed.length} run(s) of the mixed set did not succeed`);
    const reports = new Map<string, PreflightReport>();
    for (const r of finished) {
      const report = await fetch(`${api.url}/api/open/runs/${r.id}/files/report.json`, {
        headers: bearer(tenant.token),
      });
      if (report.status !== 200) throw new Error(`report.json of run ${r.id}: ${report.status}`);
      reports.set(runs.get(r.id)!.file, (await report.json()) as PreflightReport);
    }
    const last = Math.max(...finished.map((r) => Date.parse(r.completed_at!)));
    const runSeconds = finished.map((r) => ({
      pdf: runs.get(r.id)!,
      seconds: (Date.parse(r.completed_at!) - Date.parse(r.started_at!)) / 1000,
    }));
    return { seconds: (last - started) / 1000, runSeconds, reports };
  };
  try {
    // a server that has been up a while: its per-run code is compiled by then (a cold server's first round
    // read 0.4-0.5x poppler on the quick subset, against 3x and more warm)
    await ours();
    const oursRounds: Awaited<ReturnType<typeof ours>>[] = [];
    const reference: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      oursRounds.push(await ours());
      const seconds = await popplerSeconds(files, availableParallelism());
      if (seconds !== undefined) reference.push(seconds);
    }
    const oursSeconds = median(oursRounds.map((r) => r.seconds));
    // where a round's time goes: a run's own seconds, summed by kind of file (medians over the rounds)
    const groups: [string, (pdf: DebianPdf) => boolean][] = [
      ['files of 1-5 pages', (pdf) => pdf.pages <= 5],
      ['6-200 pages', (pdf) => pdf.pages > 5 && pdf.pages <= 200],
      ['over 200 pages', (pdf) => pdf.pages > 200],
    ];
    const byGroup = groups
      .map(([label, inGroup]) => {
        const sums = oursRounds.map((r) =>
          r.runSeconds.filter((x) => inGroup(x.pdf)).reduce((sum, x) => sum + x.seconds, 0),
        );
        const count = files.filter(inGroup).length;
        const groupPages = files.filter(inGroup).reduce((sum, f) => sum + f.pages, 0);
        return count === 0
          ? ''
          : `${label}: ${count} runs, ${groupPages} pages, ${round(median(sums))} s of runs`;
      })
      .filter(Boolean)
      .join('; ');
    const spread = `rounds ${oursRounds.map((r) => round(r.seconds)).join(', ')} s; ${byGroup}`;
    if (reference.length === 0) {
      record({
        scenario: '14 mixed set',
        variant: `pdf-preflight through the API, ${set}`,
        value: `${round(pages / oursSeconds, 1)} pages/s (${spread}; poppler-utils absent: no reference)`,
      });
      return;
    }
    const referenceSeconds = median(reference);
    record({
      scenario: '14 mixed set',
      variant: `poppler pdfinfo+pdffonts+pdftotext+pdfimages, ${availableParallelism()} at once, ${set}`,
      value: `${round(pages / referenceSeconds, 1)} pages/s (rounds ${reference.map((s) => round(s)).join(', ')} s)`,
    });
    const ratio = referenceSeconds / oursSeconds;
    record({
      scenario: '14 mixed set',
      variant: `pdf-preflight through the API, uploads ${UPLOAD_LANES} at once until the last run completed, default pool, ${set}`,
      value: `${round(pages / oursSeconds, 1)} pages/s (${spread})`,
      ratio,
      target: '>= 1.5x poppler',
      met: ratio >= 1.5,
    });
    // the speed counts only if the reports say what poppler and qpdf say of the same files
    for (const [fact, [agree, compared]] of Object.entries(factAgreement(oursRounds[0]!.reports) ?? {}))
      record({
        scenario: '14 quality',
        variant: `${fact} in the served reports against poppler/qpdf (${files.length} files)`,
        value: `${agree}/${compared} agree`,
        ratio: compared === 0 ? undefined : agree / compared,
      });
  } finally {
    await api.stop();
  }
}
