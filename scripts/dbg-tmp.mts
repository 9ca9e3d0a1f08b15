import { readdirSync } from 'node:fs';
import { Pdfium } from '../src/pdf/pdfium.js';
import { inProcessReport } from '../test/helpers/in-process-report.js';
const pdfium = await Pdfium.create(1024 * 2 ** 20);
const dir = 'test/fixtures/pdfs/documents';
const files = readdirSync(dir).map((f) => `${dir}/${f}`);
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  let pages = 0;
  for (const f of files) pages += inProcessReport(pdfium, f).pages.length;
  const s = (performance.now() - t) / 1000;
  console.log(`round ${r}: ${pages} pages ${s.toFixed(2)} s ${(pages / s).toFixed(0)} pages/s ${(1000 * s / pages).toFixed(2)} ms/page`);
}
