import { readFileSync } from 'node:fs';
import path from 'node:path';
import { judge, type ProfileName } from '../../src/diagnosis/profiles.js';
import type { Pdfium } from '../../src/pdf/pdfium.js';
import { inProcessReport } from './in-process-report.js';

/** One file of test/fixtures/pdfs/conformance (see scripts/make-conformance-corpus.mts). */
export interface CorpusEntry {
  file: string;
  profile: ProfileName;
  standard: string;
  expect: 'pass' | 'fail';
  clause: string | null;
  check: string | null;
  how: string;
}

export interface CorpusOutcome extends CorpusEntry {
  verdict: 'pass' | 'fail';
  failed: string[];
}

export const CORPUS_DIR = path.resolve(import.meta.dirname, '../fixtures/pdfs/conformance');

export function corpusEntries(): CorpusEntry[] {
  return JSON.parse(readFileSync(path.join(CORPUS_DIR, 'corpus.json'), 'utf8')) as CorpusEntry[];
}

/** Every corpus file read as a run reads it and judged by its profile. */
export function judgeCorpus(pdfium: Pdfium): CorpusOutcome[] {
  return corpusEntries().map((entry) => {
    const report = inProcessReport(pdfium, path.join(CORPUS_DIR, entry.file));
    const profile = judge(entry.profile, report, {}, { printMinPpi: 300 });
    return {
      ...entry,
      verdict: profile.verdict,
      failed: profile.checks.filter((c) => c.status === 'fail' && c.severity === 'error').map((c) => c.id),
    };
  });
}

export interface CorpusTable {
  /** Per standard: conforming files that pass, of all conforming. */
  conformingPass: Record<string, [number, number]>;
  /** Per standard: failing files with a fail verdict, of all failing. */
  failingCaught: Record<string, [number, number]>;
  /** Per check: its clause's failing files on which it fails, of all of them. */
  checkCatches: Record<string, [number, number]>;
  /** Per check: conforming files on which it fails (false alarms). */
  falseAlarms: Record<string, number>;
}

export function tabulate(outcomes: CorpusOutcome[]): CorpusTable {
  const table: CorpusTable = { conformingPass: {}, failingCaught: {}, checkCatches: {}, falseAlarms: {} };
  const bump = (record: Record<string, [number, number]>, key: string, hit: boolean) => {
    const [hits, total] = record[key] ?? [0, 0];
    record[key] = [hits + (hit ? 1 : 0), total + 1];
  };
  for (const o of outcomes) {
    if (o.expect === 'pass') {
      bump(table.conformingPass, o.standard, o.verdict === 'pass');
      for (const id of o.failed) table.falseAlarms[id] = (table.falseAlarms[id] ?? 0) + 1;
    } else {
      bump(table.failingCaught, o.standard, o.verdict === 'fail');
      if (o.check)
        bump(table.checkCatches, `${o.profile} ${o.check} (${o.clause})`, o.failed.includes(o.check));
    }
  }
  return table;
}
