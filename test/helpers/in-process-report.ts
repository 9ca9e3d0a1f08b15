import { closeSync, fstatSync, openSync } from 'node:fs';
import { CosFile } from '../../src/pdf/cos/file.js';
import { DocumentReader } from '../../src/pdf/facts.js';
import { RULE_JUDGES, type RuleSetName } from '../../src/rules/object-judges.js';
import type { Pdfium } from '../../src/pdf/pdfium.js';
import { buildReport, type PreflightReport } from '../../src/diagnosis/report.js';

/**
 * The report of `file` read on this thread as a run reads it (the document's facts, then every page's), with
 * no HTTP, queue, report file or thumbnail: for the facts' tests and the bench's bare engine. `judged`: the
 * rule set the objects are judged by too (by default every published rule, so that any profile can judge the
 * report), or none, as a pdf-preflight run reads it (false).
 */
export function inProcessReport(
  pdfium: Pdfium,
  file: string,
  judge?: Parameters<typeof buildReport>[3],
  judged: RuleSetName | false = 'every',
): PreflightReport {
  const opened = pdfium.openFile(file);
  const fd = openSync(file, 'r');
  let cos: CosFile | undefined;
  try {
    const reader = new DocumentReader(
      pdfium,
      opened.handle,
      () => (cos ??= new CosFile(fd, fstatSync(fd).size)),
      RULE_JUDGES,
    );
    const doc = reader.documentFacts(judged || undefined);
    const pages = Array.from({ length: doc.page_count ?? 0 }, (_, i) => ({
      page: i + 1,
      status: 'ok' as const,
      value: reader.pageFacts(i, judged || undefined),
    }));
    reader.close();
    return buildReport(
      { run_id: 'r', file_id: 'f', file_name: file, generated_at: 'now' },
      doc,
      pages,
      judge,
    );
  } finally {
    opened.close();
    closeSync(fd);
  }
}
