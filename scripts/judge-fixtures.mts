/**
 * Prints the conformance corpus's table (test/fixtures/pdfs/conformance, made by make-conformance-corpus.mts):
 * conforming files that pass, failing files caught, and each check against the files of its clause.
 *
 *   npm run judge:fixtures
 */
import { Pdfium } from '../src/pdf/pdfium.js';
import { judgeCorpus, tabulate } from '../test/helpers/conformance-corpus.js';

const pdfium = await Pdfium.create(512 * 2 ** 20);
const outcomes = judgeCorpus(pdfium);
const table = tabulate(outcomes);
const cell = ([hits, total]: [number, number]) =>
  `${hits} of ${total} (${((100 * hits) / total).toFixed(1)} %)`;
console.log('| standard | conforming files that pass | failing files with a fail verdict |');
console.log('|---|---|---|');
for (const standard of Object.keys(table.conformingPass))
  console.log(
    `| ${standard} | ${cell(table.conformingPass[standard]!)} | ${cell(table.failingCaught[standard] ?? [0, 0])} |`,
  );
console.log('\n| check (clause) | failing files of its clause it fails |');
console.log('|---|---|');
for (const [check, counts] of Object.entries(table.checkCatches))
  console.log(`| ${check} | ${cell(counts)} |`);
const alarms = Object.entries(table.falseAlarms);
console.log(
  `\nfalse alarms on conforming files: ${alarms.length === 0 ? 'none' : alarms.map(([id, n]) => `${id} ${n}`).join(', ')}`,
);
const unclaimed = outcomes.filter((o) => o.expect === 'fail' && o.check === null);
console.log(
  `failing files of clauses no check claims: ${unclaimed.map((o) => `${o.clause} (${o.verdict})`).join(', ') || 'none'}`,
);
