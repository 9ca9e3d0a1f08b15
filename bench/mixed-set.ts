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

/** The packages of the quick run's subset: a short file, three manuals (one of 311 pages). */
const QUICK_PACKAGES = ['cups-filters', 'python-reportlab-doc', 'maint-guide', 'gnuplot-doc'];
/** Uploads in flight at once, as a client with a folder of files sends them. */
const UPLOAD_LANES = 4;
/** The profiles measured, in the order of a round; the first is the one held to its target. */
const ALL_TARGETS = ['pdf-preflight', 'pdf-archive', 'pdf-accessibility'] as const;
type Target = (typeof ALL_TARGETS)[number];
/** `BENCH_MIXED_TARGETS=pdf-preflight` (a comma list) measures only those, for a shorter run. */
const TARGETS = ALL_TARGETS.filter(
  (target) => !process.env.BENCH_MIXED_TARGETS || process.env.BENCH_MIXED_TARGETS.split(',').includes(target),
);
/** How often the client polls the run list, as a user's script waits for its runs. */
const POLL_MS = 50;
/** Runs of the largest document alone, per server: the median is kept. */
const ALONE_RUNS = 3;

const GROUPS: [string, (pdf: DebianPdf) => boolean][] = [
  ['1-5 pages', (pdf) => pdf.pages <= 5],
  ['6-99 pages', (pdf) => pdf.pages > 5 && pdf.pages < 100],
  ['100-999 pages', (pdf) => pdf.pages >= 100 && pdf.pages < 1000],
  ['1,000+ pages', (pdf) => pdf.pages >= 1000],
];

interface RunView {
  id: string;
  status: string;
  started_at: string | null;
  completed_at: string | null;
}

interface Round {
  /** From the first run queued to the last run completed (its report downloadable then). */
  seconds: number;
  /** Each run's own seconds (started to completed) and when it completed, from the first run queued. */
  runs: { pdf: DebianPdf; seconds: number; doneAfter: number }[];
  reports?: Map<string, PreflightReport>;
}

type Api = Awaited<ReturnType<typeof startApi>>;

/** A client of one tenant on one server: uploads, runs queued at once, the run list polled. */
function client(api: Api, token: string) {
  const headers = { ...bearer(token), 'content-type': 'application/json' };
  const call = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${api.url}${route}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { data: T }).data;
  };
  const upload = async (pdf: DebianPdf): Promise<string> => {
    const bytes = readFileSync(pdf.file);
    const started = await call<{ upload_id: string; part_size: number; part_count: number }>(
      'POST',
      '/api/open/uploads',
      { file_name: path.basename(pdf.file), size_bytes: bytes.length },
    );
    for (let part = 1; part <= started.part_count; part++) {
      const res = await fetch(`${api.url}/api/open/uploads/${started.upload_id}/parts/${part}`, {
        method: 'PUT',
        headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
        body: bytes.subarray((part - 1) * started.part_size, part * started.part_size),
      });
      if (!res.ok) throw new Error(`part ${part} of ${pdf.path}: ${res.status} ${await res.text()}`);
    }
    const file = await call<{ file_id: string }>('POST', '/api/open/uploads/complete', {
      upload_id: started.upload_id,
    });
    return file.file_id;
  };
  const uploadAll = async (files: DebianPdf[]) => {
    const ids = new Map<DebianPdf, string>();
    const queue = [...files];
    await Promise.all(
      Array.from({ length: UPLOAD_LANES }, async () => {
        for (let pdf = queue.shift(); pdf; pdf = queue.shift()) ids.set(pdf, await upload(pdf));
      }),
    );
    return ids;
  };
  /** Every file's run queued at once; the round ends when the last one completed. */
  const runAll = async (fileIds: Map<DebianPdf, string>, target: Target, keepReports: boolean) => {
    const started = Date.now();
    const queued = await Promise.all(
      [...fileIds].map(async ([pdf, fileId]) => {
        const run = await call<{ id: string }>('POST', '/api/open/runs', { file_id: fileId, target });
        return [run.id, pdf] as const;
      }),
    );
    const runs = new Map(queued);
    const deadline = Date.now() + 900_000;
    let finished: RunView[] = [];
    // the round's runs are the tenant's newest (at most 100 per page)
    while (finished.length < runs.size) {
      if (Date.now() > deadline) throw new Error(`the ${target} round did not finish within 15 minutes`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const page = await call<RunView[]>('GET', `/api/open/runs?limit=${Math.min(100, runs.size)}`);
      finished = page.filter((r) => runs.has(r.id) && r.completed_at !== null);
    }
    const failed = finished.filter((r) => r.status !== 'succeeded');
    if (failed.length > 0)
      throw new Error(`${failed.length} ${target} run(s) of the mixed set did not succeed`);
    let reports: Map<string, PreflightReport> | undefined;
    if (keepReports) {
      reports = new Map();
      for (const r of finished) {
        const report = await fetch(`${api.url}/api/open/runs/${r.id}/files/report.json`, {
          headers: bearer(token),
        });
        if (report.status !== 200) throw new Error(`report.json of run ${r.id}: ${report.status}`);
        reports.set(runs.get(r.id)!.file, (await report.json()) as PreflightReport);
      }
    }
    const last = Math.max(...finished.map((r) => Date.parse(r.completed_at!)));
    const round: Round = {
      seconds: (last - started) / 1000,
      runs: finished.map((r) => ({
        pdf: runs.get(r.id)!,
        seconds: (Date.parse(r.completed_at!) - Date.parse(r.started_at!)) / 1000,
        doneAfter: (Date.parse(r.completed_at!) - started) / 1000,
      })),
      ...(reports ? { reports } : {}),
    };
    return round;
  };
  /** Seconds of one file's run with nothing else queued (started to completed), the median of `count`. */
  const alone = async (fileId: string, count: number) => {
    const seconds: number[] = [];
    for (let i = 0; i < count; i++) {
      const run = await call<{ id: string }>('POST', '/api/open/runs', {
        file_id: fileId,
        target: 'pdf-preflight',
      });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const view = await call<RunView>('GET', `/api/open/runs/${run.id}`);
        if (view.completed_at === null) continue;
        if (view.status !== 'succeeded') throw new Error(`run ${run.id}: ${view.status}`);
        seconds.push((Date.parse(view.completed_at) - Date.parse(view.started_at!)) / 1000);
        break;
      }
    }
    return median(seconds);
  };
  return { uploadAll, runAll, alone };
}

/** Per size group: its runs and pages, when its last run completed, and its runs' own seconds (medians). */
function byGroup(files: DebianPdf[], rounds: Round[]): string {
  return GROUPS.map(([label, inGroup]) => {
    const members = files.filter(inGroup);
    if (members.length === 0) return '';
    const pages = members.reduce((sum, f) => sum + f.pages, 0);
    const lastDone = median(
      rounds.map((r) => Math.max(...r.runs.filter((x) => inGroup(x.pdf)).map((x) => x.doneAfter))),
    );
    const runSeconds = median(
      rounds.map((r) => r.runs.filter((x) => inGroup(x.pdf)).reduce((sum, x) => sum + x.seconds, 0)),
    );
    return `${label}: ${members.length} runs, ${pages} pages, last done at ${round(lastDone)} s, ${round(runSeconds)} s of runs (${round(pages / runSeconds, 0)} pages/s of a run)`;
  })
    .filter(Boolean)
    .join('; ');
}

/**
 * Scenario 14: diagnosis of a real mix of PDFs, timed the way a user waits. The set is the PDFs of
 * bench/debian-pdfs.tsv: small files of many producers, manuals of 6 to 200 pages, and documents of 100 to
 * 1,483 pages (manuals of GAP, Octave, ngspice, gmsh, gnuplot, R, GNU Prolog, Asymptote, xfig and the Debian
 * Reference). Every file is uploaded once; a round then queues every file's run at once (as a script
 * with a folder of files does) and ends when the last run completed; the client polls the run list every
 * POLL_MS meanwhile. Rounds of pdf-preflight, pdf-archive and pdf-accessibility alternate with poppler's four
 * tools over the same files on every core. Then the largest document alone, on the default pool and on a
 * server of one parser thread.
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
  const largest = files.reduce((a, b) => (b.pages > a.pages ? b : a));
  const cores = availableParallelism();

  const dir = path.join(work, 'mixed-set');
  const tenant = await createTenant(dir, 'mixed-set');
  const api = await startApi(dir, options.port());
  const rounds = new Map<Target, Round[]>(TARGETS.map((t) => [t, []]));
  const reference: number[] = [];
  let defaultAlone: number;
  try {
    const ours = client(api, tenant.token);
    const fileIds = await ours.uploadAll(files);
    // a server that has been up a while: its per-run code is compiled by then (a cold server's first round
    // read 0.4-0.5x poppler on the quick subset, against 3x and more warm)
    for (const target of TARGETS) await ours.runAll(fileIds, target, false);
    for (let r = 0; r < options.rounds; r++) {
      for (const target of TARGETS) rounds.get(target)!.push(await ours.runAll(fileIds, target, r === 0));
      const seconds = await popplerSeconds(files, cores);
      if (seconds !== undefined) reference.push(seconds);
    }
    defaultAlone = await ours.alone(fileIds.get(largest)!, ALONE_RUNS);
  } finally {
    await api.stop();
  }

  const referenceSeconds = reference.length > 0 ? median(reference) : undefined;
  if (referenceSeconds !== undefined)
    record({
      scenario: '14 mixed set',
      variant: `poppler pdfinfo+pdffonts+pdftotext+pdfimages, ${cores} at once, ${set}`,
      value: `${round(pages / referenceSeconds, 1)} pages/s (rounds ${reference.map((s) => round(s)).join(', ')} s)`,
    });
  for (const target of TARGETS) {
    const measured = rounds.get(target)!;
    const seconds = median(measured.map((r) => r.seconds));
    const ratio = referenceSeconds === undefined ? undefined : referenceSeconds / seconds;
    const held = target === 'pdf-preflight';
    record({
      scenario: '14 mixed set',
      variant: `${target} through the API, every run queued at once until the last completed, default pool, ${set}`,
      value: `${round(pages / seconds, 1)} pages/s (rounds ${measured.map((r) => round(r.seconds)).join(', ')} s; ${byGroup(files, measured)})`,
      ...(ratio === undefined ? {} : { ratio }),
      ...(held ? { target: '>= 1.5x poppler', ...(ratio === undefined ? {} : { met: ratio >= 1.5 }) } : {}),
    });
  }

  // the largest document alone: what one run gains from the pool's threads
  const oneThreadDir = path.join(work, 'mixed-set-one-thread');
  const oneTenant = await createTenant(oneThreadDir, 'one-thread');
  const oneThread = await startApi(oneThreadDir, options.port(), { PARSER_THREADS: '1' });
  let oneThreadAlone: number;
  try {
    const single = client(oneThread, oneTenant.token);
    const ids = await single.uploadAll([largest]);
    await single.alone(ids.get(largest)!, 1);
    oneThreadAlone = await single.alone(ids.get(largest)!, ALONE_RUNS);
  } finally {
    await oneThread.stop();
  }
  const aloneRatio = defaultAlone / oneThreadAlone;
  record({
    scenario: '14 mixed set',
    variant: `pdf-preflight of ${path.basename(largest.file)} (${largest.package}, ${largest.pages} pages) alone: default pool against PARSER_THREADS=1`,
    value: `${round(defaultAlone)} s against ${round(oneThreadAlone)} s (medians of ${ALONE_RUNS})`,
    ratio: aloneRatio,
    target: '< 0.6x one thread',
    met: aloneRatio < 0.6,
  });

  // the speed counts only if the reports say what poppler and qpdf say of the same files
  const served = rounds.get('pdf-preflight')?.[0]?.reports;
  for (const [fact, [agree, compared]] of Object.entries((served && factAgreement(served)) ?? {}))
    record({
      scenario: '14 quality',
      variant: `${fact} in the served reports against poppler/qpdf (${files.length} files)`,
      value: `${agree}/${compared} agree`,
      ratio: compared === 0 ? undefined : agree / compared,
    });
}
