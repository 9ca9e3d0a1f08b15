/**
 * The reference conformance corpus as a judge of the verdicts: every file of ../shared/corpus/verapdf-dev (or
 * CORPUS_DIR) goes through the public API as a user's file would (upload, a `pdf-archive` run for PDF/A
 * files and a `pdf-accessibility` run for PDF/UA files, `report.json`), and the verdicts are compared with
 * the corpus's: specificity (conforming files that pass) and coverage (failing files that fail) per part and
 * per clause family and per clause a check names (and for PDF/UA per Matterhorn checkpoint), and each check's catches on the failing files of the clause it names, with its false
 * alarms on conforming files. The corpus is veraPDF's (CC-BY-4.0), read where it is; nothing here ships it.
 *
 *   npm run judge:corpus                      every part
 *   npm run judge:corpus -- PDF_UA-1          one part (PDF_A-1b, PDF_A-2b, PDF_UA-1)
 *   npm run judge:corpus -- --json out.json   also every file's outcome
 *
 * Our own fixtures' table (test/fixtures/pdfs/conformance) is `npm run judge:fixtures`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '../clients/typescript/src/index.js';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/kernel/logger.js';
import { PROJECT_ROOT } from '../src/contract/paths.js';
import { startServer } from '../src/start/http-server.js';
import { publishedRules, type ProfileFile } from '../src/rules/inventory/index.js';
import { matterhornConditions, matterhornOf } from '../src/rules/inventory/matterhorn.js';
import { PDFA_REASONS, PDFA_RULES } from '../src/rules/pdfa/index.js';
import { PDFUA_REASONS, PDFUA_RULES } from '../src/rules/pdfua/index.js';
import type { Specification } from '../src/rules/rule.js';

const INVENTORY: [ProfileFile, Specification][] = [
  ['PDFA-1B', 'ISO 19005-1'],
  ['PDFA-2B', 'ISO 19005-2'],
  ['PDFA-3B', 'ISO 19005-3'],
  ['PDFUA-1', 'ISO 14289-1'],
];

const CORPUS = path.resolve(
  process.env.CORPUS_DIR ?? path.join(PROJECT_ROOT, '../shared/corpus/verapdf-dev'),
);
/**
 * Left out of every figure, as the corpus's README says: its name and its bookmark disagree. (The README
 * places it under `6.2.8 Images`; the manifest, under `6.2.8 Extended graphics state`: matched by name.)
 */
const EXCLUDED = new Set(['PDF_A-1b veraPDF test suite 6-2-8-t02-pass-a.pdf']);
const IN_FLIGHT = 6;

interface Row {
  path: string;
  part: string;
  family: string;
  clause: string;
  testId: string;
  expected: 'pass' | 'fail';
  description: string;
  /**
   * The published rule the file tests, `clause-test` as veraPDF's profile numbers it; empty where the corpus's
   * test number is not the profile's.
   */
  rule: string;
}

interface Outcome extends Row {
  verdict: 'pass' | 'fail' | 'error';
  /** the checks of severity error that failed, with the clause each names */
  failed: { id: string; clause: string | null }[];
  /** every check of the profile with the clause it names, whatever its status */
  checks: { id: string; clause: string | null }[];
  /** The published rules that failed, `clause-test`. */
  failedRules: string[];
  /** `pdf-accessibility`: the Matterhorn conditions that failed. */
  failedConditions: string[];
  error?: string;
}

const args = process.argv.slice(2);
const jsonAt = args.indexOf('--json');
const jsonOut = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
const parts = args.filter((a, i) => !a.startsWith('--') && !(jsonAt >= 0 && i === jsonAt + 1));

if (!existsSync(path.join(CORPUS, 'manifest.tsv'))) {
  console.log(`judge:corpus: no corpus at ${CORPUS} (set CORPUS_DIR); nothing judged`);
  process.exit(0);
}

const [header, ...lines] = readFileSync(path.join(CORPUS, 'manifest.tsv'), 'utf8').trim().split('\n');
const column = Object.fromEntries(header!.split('\t').map((name, i) => [name, i]));
const rows: Row[] = lines
  .map((line) => line.split('\t'))
  .map((cells) => ({
    path: cells[column.path!]!,
    part: cells[column.part!]!,
    family: cells[column.clause_folder!]!.split('/')[0]!,
    clause: cells[column.rule_clause!]!,
    testId: cells[column.test_id!]!,
    expected: cells[column.expected!] as 'pass' | 'fail',
    description: cells[column.description!]!,
    // the corpus numbers some tests as the profile does not: those have no profile rule of the same number
    rule: cells[column.profile_rule_same_tnum!]
      ? `${cells[column.rule_clause!]}-${cells[column.rule_test!]}`
      : '',
  }))
  .filter(
    (row) =>
      !EXCLUDED.has(`${row.part} ${path.basename(row.path)}`) &&
      (parts.length === 0 || parts.includes(row.part)),
  );

const dataDir = mkdtempSync(path.join(tmpdir(), 'ota-judge-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  SEED_DEMO_TENANT: 'false',
  PARSER_THREADS: '2',
  RATE_LIMIT_PER_SECOND: '0',
  RATE_LIMIT_ANONYMOUS_PER_SECOND: '0',
  MAX_PENDING_UPLOADS_PER_TENANT: '100000',
  MAX_QUEUED_RUNS_PER_TENANT: '100000',
});
const server = await startServer(config, createLogger('silent'));
const { token } = await server.services.tenants.create('judge');
const client = createClient({ baseUrl: server.url, token });

interface Check {
  id: string;
  status: string;
  severity: string;
  clause?: string | null;
  rules?: { clause: string; test: number; status: string }[];
}

async function judgeFile(row: Row): Promise<Outcome> {
  try {
    const upload = await client.uploadFile(path.join(CORPUS, row.path), {
      fileName: path.basename(row.path),
    });
    const target = row.part.startsWith('PDF_UA') ? 'pdf-accessibility' : 'pdf-archive';
    const run = await client.waitForRun((await client.createRun(upload.file_id, target)).id, { poll: true });
    if (run.status !== 'succeeded')
      return {
        ...row,
        verdict: 'error',
        failed: [],
        checks: [],
        failedRules: [],
        failedConditions: [],
        error: run.error ?? run.status,
      };
    const report = JSON.parse((await client.downloadRunFile(run.id, 'report.json')).toString('utf8')) as {
      profile?: {
        verdict: 'pass' | 'fail';
        checks: Check[];
        matterhorn?: { conditions: { condition: string; status: string }[] }[];
      };
    };
    const profile = report.profile!;
    return {
      ...row,
      verdict: profile.verdict,
      failed: profile.checks
        .filter((c) => c.status === 'fail' && c.severity === 'error')
        .map((c) => ({ id: c.id, clause: c.clause ?? null })),
      checks: profile.checks.map((c) => ({ id: c.id, clause: c.clause ?? null })),
      failedRules: profile.checks
        .filter((c) => c.severity === 'error')
        .flatMap((c) =>
          (c.rules ?? []).filter((r) => r.status === 'fail').map((r) => `${r.clause}-${r.test}`),
        ),
      failedConditions: (profile.matterhorn ?? [])
        .flatMap((cp) => cp.conditions)
        .filter((c) => c.status === 'fail')
        .map((c) => c.condition),
    };
  } catch (error) {
    return {
      ...row,
      verdict: 'error',
      failed: [],
      checks: [],
      failedRules: [],
      failedConditions: [],
      error: (error as Error).message,
    };
  }
}

const started = performance.now();
const outcomes: Outcome[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: IN_FLIGHT }, async () => {
    while (next < rows.length) outcomes.push(await judgeFile(rows[next++]!));
  }),
);
await server.close();
rmSync(dataDir, { recursive: true, force: true });

const pct = (hits: number, total: number) =>
  `${hits} of ${total} (${total === 0 ? '-' : ((100 * hits) / total).toFixed(1)} %)`;
const count = <T,>(items: T[], keep: (item: T) => boolean) => items.filter(keep).length;
/** A check names its clause; it is judged on the failing files of that clause and of the clauses below it. */
const under = (clause: string, named: string) => clause === named || clause.startsWith(`${named}.`);

console.log(
  `judge:corpus: ${outcomes.length} files of ${CORPUS} through the API in ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
for (const part of [...new Set(outcomes.map((o) => o.part))].sort()) {
  const mine = outcomes.filter((o) => o.part === part);
  const conforming = mine.filter((o) => o.expected === 'pass');
  const failing = mine.filter((o) => o.expected === 'fail');
  console.log(`\n## ${part}\n`);
  console.log(
    `- specificity (conforming files that pass): ${pct(
      count(conforming, (o) => o.verdict === 'pass'),
      conforming.length,
    )}`,
  );
  console.log(
    `- coverage (failing files that fail): ${pct(
      count(failing, (o) => o.verdict === 'fail'),
      failing.length,
    )}`,
  );
  const errors = mine.filter((o) => o.verdict === 'error');
  if (errors.length > 0)
    console.log(
      `- runs that did not give a verdict: ${errors.length} (${errors
        .slice(0, 3)
        .map((o) => `${o.testId}: ${o.error}`)
        .join('; ')})`,
    );
  console.log('\n| clause family | coverage |\n|---|---|');
  for (const family of [...new Set(failing.map((o) => o.family))].sort())
    console.log(
      `| ${family} | ${pct(
        count(failing, (o) => o.family === family && o.verdict === 'fail'),
        count(failing, (o) => o.family === family),
      )} |`,
    );
  // a clause a check names is judged on its failing files (and those of the clauses below it): the profile,
  // whichever of its checks, is to fail them
  const named = [...new Set(mine.flatMap((o) => o.checks.flatMap((c) => (c.clause ? [c.clause] : []))))].sort(
    (a, b) => a.localeCompare(b, 'en', { numeric: true }),
  );
  console.log('\n| clause a check names | failing files of the clause that fail |\n|---|---|');
  for (const clause of named) {
    const ofClause = failing.filter(
      (o) => under(o.clause, clause) && o.checks.some((c) => c.clause === clause),
    );
    if (ofClause.length > 0)
      console.log(
        `| ${clause} | ${pct(
          count(ofClause, (o) => o.verdict === 'fail'),
          ofClause.length,
        )} |`,
      );
  }
  // a check is judged by the clause it names, on the failing files of that clause where it names it (a file
  // judged by another part than its folder's, for want of a claim, has its checks named by that part)
  const pairs = new Map<string, { id: string; clause: string | null }>();
  for (const o of mine) for (const c of o.checks) pairs.set(`${c.id} ${c.clause}`, c);
  console.log(
    '\n| check (clause) | failing files of its clause it fails | false alarms on conforming files |\n|---|---|---|',
  );
  // a check with no failing file of its clause here and no false alarm is only named, not tabled
  const untried: string[] = [];
  for (const { id, clause } of [...pairs.values()].sort((a, b) => a.id.localeCompare(b.id))) {
    const names = (o: Outcome) => o.checks.some((c) => c.id === id && c.clause === clause);
    const ofClause = clause ? failing.filter((o) => under(o.clause, clause) && names(o)) : [];
    const catches = count(ofClause, (o) => o.failed.some((f) => f.id === id));
    const alarms = count(conforming, (o) => names(o) && o.failed.some((f) => f.id === id));
    if (ofClause.length === 0 && alarms === 0) untried.push(`${id} (${clause ?? 'no clause'})`);
    else
      console.log(
        `| ${id} (${clause ?? 'no clause'}) | ${clause ? pct(catches, ofClause.length) : '-'} | ${alarms} |`,
      );
  }
  if (untried.length > 0)
    console.log(
      `\nchecks with no failing file of their clause here, and no false alarm: ${untried.join(', ')}`,
    );
  // each published rule on the failing files that test it, and its false alarms on conforming files
  const ruleIds = [
    ...new Set([...failing.flatMap((o) => (o.rule ? [o.rule] : [])), ...mine.flatMap((o) => o.failedRules)]),
  ].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  console.log(
    '\n| rule | its failing files that fail by this rule | ... that fail at all | false alarms on conforming files |\n|---|---|---|---|',
  );
  for (const id of ruleIds) {
    const tested = failing.filter((o) => o.rule === id);
    const alarms = count(conforming, (o) => o.failedRules.includes(id));
    console.log(
      `| ${id} | ${
        tested.length > 0
          ? pct(
              count(tested, (o) => o.failedRules.includes(id)),
              tested.length,
            )
          : '-'
      } | ${
        tested.length > 0
          ? pct(
              count(tested, (o) => o.verdict === 'fail'),
              tested.length,
            )
          : '-'
      } | ${alarms} |`,
    );
  }
  // the corpus numbers some tests as the profile does not (an older numbering): judged by the verdict
  const unnumbered = failing.filter((o) => !o.rule);
  if (unnumbered.length > 0)
    console.log(
      `\nfailing files of tests the profile numbers otherwise: ${pct(
        count(unnumbered, (o) => o.verdict === 'fail'),
        unnumbered.length,
      )} fail`,
    );
  if (part.startsWith('PDF_UA')) matterhornTable(failing, conforming);
  const alarmed = conforming.filter((o) => o.verdict === 'fail');
  if (alarmed.length > 0)
    console.log(
      `\nfalse alarms: ${alarmed.map((o) => `${path.basename(o.path, '.pdf').replace('veraPDF test suite ', '')} (${o.failed.map((f) => f.id).join(', ')})`).join('; ')}`,
    );
}
console.log('\n## The rule inventory (veraPDF validation profiles)\n');
console.log('| profile | published rules | rules here | with a reason | missing |\n|---|---|---|---|---|');
for (const [profile, specification] of INVENTORY) {
  const listed = publishedRules(profile);
  const has =
    (list: readonly { specifications: readonly string[]; clause: string; test: number }[]) =>
    (r: { clause: string; test: number }) =>
      list.some(
        (x) => x.specifications.includes(specification) && x.clause === r.clause && x.test === r.test,
      );
  const implemented = listed.filter(has([...PDFA_RULES, ...PDFUA_RULES])).length;
  const reasoned = listed.filter(has([...PDFA_REASONS, ...PDFUA_REASONS])).length;
  console.log(
    `| ${profile} | ${listed.length} | ${implemented} | ${reasoned} | ${listed.length - implemented - reasoned} |`,
  );
}
/**
 * PDF/UA by Matterhorn checkpoint: the failing files whose rule stands for a condition of the checkpoint, how
 * many fail at all and how many by a condition of that checkpoint, and the conforming files a condition of it
 * fails.
 */
function matterhornTable(failing: Outcome[], conforming: Outcome[]) {
  const checkpointOf = (condition: string) => condition.slice(0, 2);
  const titles = new Map(matterhornConditions().map((c) => [c.checkpoint, c.checkpointTitle]));
  console.log(
    '\n| Matterhorn checkpoint | its failing files that fail | ... by a condition of the checkpoint | false alarms |\n|---|---|---|---|',
  );
  for (const [checkpoint, title] of titles) {
    const tested = failing.filter((o) => matterhornOf(o.rule).some((c) => checkpointOf(c) === checkpoint));
    const alarms = count(conforming, (o) => o.failedConditions.some((c) => checkpointOf(c) === checkpoint));
    if (tested.length === 0 && alarms === 0) continue;
    console.log(
      `| ${checkpoint} ${title} | ${
        tested.length > 0
          ? pct(
              count(tested, (o) => o.verdict === 'fail'),
              tested.length,
            )
          : '-'
      } | ${
        tested.length > 0
          ? pct(
              count(tested, (o) => o.failedConditions.some((c) => checkpointOf(c) === checkpoint)),
              tested.length,
            )
          : '-'
      } | ${alarms} |`,
    );
  }
}
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify(outcomes, null, 2)}\n`);
