import { Pdfium } from '../src/pdf/pdfium.js';
import type { PreflightReport } from '../src/diagnosis/report.js';
import { compareFacts, recordTruth } from '../test/helpers/fact-truth.js';
import { inProcessReport } from '../test/helpers/in-process-report.js';

/**
 * The engine alone, on this thread: open each file, read the document's facts and every page's, as a
 * pdf-preflight run does, with no HTTP, database, queue, report file or thumbnail. Scenario 6 sets the
 * service's pages/s against it. `rounds` passes over the files; the first warms the code up and is not timed.
 */
export async function bareEngine(files: string[], rounds: number) {
  const pdfium = await Pdfium.create(1024 * 2 ** 20);
  const reports = new Map<string, PreflightReport>();
  let pages = 0;
  let seconds = 0;
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now();
    let roundPages = 0;
    for (const file of files) {
      // as the pdf-preflight runs it is set against read it: without the published rules
      const report = inProcessReport(pdfium, file, undefined, false);
      roundPages += report.pages.length;
      if (round === 0) reports.set(file, report);
    }
    if (round === 0) continue;
    seconds += (performance.now() - started) / 1000;
    pages += roundPages;
  }
  return { pagesPerSecond: pages / seconds, reports };
}

/**
 * Per fact, how many comparisons with poppler (pdfimages, pdffonts, pdfinfo) and qpdf agree over `reports`;
 * undefined without poppler-utils and qpdf.
 */
export function factAgreement(reports: Map<string, PreflightReport>) {
  const totals: Record<string, [number, number]> = {};
  for (const [file, report] of reports) {
    let truth;
    try {
      truth = recordTruth(file);
    } catch {
      return undefined; // poppler-utils or qpdf is not installed
    }
    if (!truth) continue;
    for (const [fact, [agree, compared]] of Object.entries(compareFacts(truth, report))) {
      const [a, n] = totals[fact] ?? [0, 0];
      totals[fact] = [a + agree, n + compared];
    }
  }
  return totals;
}
