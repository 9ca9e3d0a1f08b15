import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { CosFile } from '../../src/pdf/cos/file.js';
import { MODEL_FAMILIES } from '../../src/rules/families.js';
import { judgeFile } from '../../src/rules/judge-file.js';
import { PDFUA_RULES } from '../../src/rules/pdfua/index.js';

/**
 * A real writer's PDF/UA export, judged by every PDF/UA-1 rule: the rules name what LibreOffice 7.4 gets
 * wrong and nothing else (see test/fixtures/pdfs/writers/README.md). A rule that fires on anything more
 * refuses what a real writer tags correctly.
 */
const WRITERS = path.resolve(import.meta.dirname, '../fixtures/pdfs/writers');

function failingRules(file: string): string[] {
  const fd = openSync(path.join(WRITERS, file), 'r');
  try {
    return judgeFile(new CosFile(fd, fstatSync(fd).size), PDFUA_RULES, MODEL_FAMILIES)
      .map((f) => `${f.clause}-${f.test}`)
      .sort();
  } finally {
    closeSync(fd);
  }
}

describe("LibreOffice 7.4's PDF/UA export", () => {
  it('a report with headings, lists, a spanned table, a described image, links and three languages: only /Tabs', () => {
    // LibreOffice 7.4 writes /Tabs (S), a string where PDF has the name /S (fixed in 7.5)
    expect(failingRules('libreoffice-ua-report.pdf')).toEqual(['7.18.3-1']);
  });

  it('a handbook with a table of contents and notes: the Note without /ID and the untagged note link', () => {
    // its Note elements have no /ID, and the footnote's link back to its citation has no /StructParent
    expect(failingRules('libreoffice-ua-notes.pdf')).toEqual(['7.18.3-1', '7.18.5-1', '7.9-1']);
  });
});
