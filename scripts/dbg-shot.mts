import { writeFileSync } from 'node:fs';
import { Pdfium } from '../src/pdf/pdfium.js';
import { inProcessReport } from '../test/helpers/in-process-report.js';
import { judge } from '../src/diagnosis/profiles.js';
import { renderReportHtml } from '../src/diagnosis/report-html.js';
const pdfium = await Pdfium.create(512 * 2 ** 20);
const [file, profile, out] = process.argv.slice(2);
const report = inProcessReport(pdfium, file!, (facts) => judge(profile as 'pdf-archive', facts, {}, { printMinPpi: 300 }));
writeFileSync(out!, renderReportHtml(report, new Map(), { thumbnails: 12, htmlPages: 200 } as never));
