/**
 * The rules layer alone against the reference corpus's development half, in this process (no server): for
 * each PDF/A and PDF/UA file of ../shared/corpus/verapdf-dev (or CORPUS_DIR), the rules of the part it is a
 * test of, and per rule id its catches on the failing files that test it and its false alarms on conforming
 * files. For working on rules; the verdicts a user sees are judged through the API by `npm run judge:corpus`.
 *
 *   npx tsx scripts/judge-rules.mts                 every PDF/A part and PDF/UA-1
 *   npx tsx scripts/judge-rules.mts PDF_A-2b 6.2    one part, the rules of one clause family
 *   npx tsx scripts/judge-rules.mts PDF_UA-1 7.18   PDF/UA-1, the rules of clause 7.18
 */
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CosFile } from '../src/pdf/cos/file.js';
import { PROJECT_ROOT } from '../src/contract/paths.js';
import { MODEL_FAMILIES } from '../src/rules/families.js';
import { judgeFile } from '../src/rules/judge-file.js';
import { PDFA_RULES } from '../src/rules/pdfa/index.js';
import { PDFUA_RULES } from '../src/rules/pdfua/index.js';
import type { RuleFailure, Specification } from '../src/rules/rule.js';

const CORPUS = path.resolve(
  process.env.CORPUS_DIR ?? path.join(PROJECT_ROOT, '../shared/corpus/verapdf-dev'),
);
const SPEC: Record<string, Specification> = {
  'PDF_A-1b': 'ISO 19005-1',
  'PDF_A-2b': 'ISO 19005-2',
  'PDF_UA-1': 'ISO 14289-1',
};
const [onlyPart, onlyFamily] = process.argv.slice(2);

if (!existsSync(path.join(CORPUS, 'manifest.tsv'))) {
  console.log(`judge-rules: no corpus at ${CORPUS}`);
  process.exit(0);
}
const rows = readFileSync(path.join(CORPUS, 'manifest.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .map(([file, part, , testId, expected, , , clause, test]) => ({
    file: file!,
    part: part!,
    testId: testId!,
    expected: expected!,
    rule: `${clause}-${test}`,
    clause: clause!,
  }))
  .filter((r) => SPEC[r.part] && (!onlyPart || r.part === onlyPart))
  .filter((r) => !r.file.endsWith('6-2-8-t02-pass-a.pdf'));

interface Tally {
  caught: number;
  /** caught by another rule of the same clause (the corpus's numbering is not always the profile's) */
  byClause: number;
  missed: string[];
  falseAlarms: string[];
}
const byRule = new Map<string, Tally>();
const tally = (id: string) => {
  const t = byRule.get(id) ?? { caught: 0, byClause: 0, missed: [], falseAlarms: [] };
  byRule.set(id, t);
  return t;
};
let pass = 0;
let passOk = 0;
let fail = 0;
let failOk = 0;
const family = (id: string) => id.split('.').slice(0, 2).join('.').replace(/-.*/, '');
for (const row of rows) {
  const specification = SPEC[row.part]!;
  const rules = [...PDFA_RULES, ...PDFUA_RULES].filter((r) => r.specifications.includes(specification));
  const file = path.join(CORPUS, row.file);
  const fd = openSync(file, 'r');
  let failures: RuleFailure[];
  try {
    failures = judgeFile(new CosFile(fd, statSync(file).size), rules, MODEL_FAMILIES).filter(
      (f) => f.specification === specification,
    );
  } catch (error) {
    console.log(`ERROR ${row.file}: ${(error as Error).stack}`);
    failures = [];
  } finally {
    closeSync(fd);
  }
  const ids = failures.map((f) => `${f.clause}-${f.test}`);
  const inFamily = (id: string) => !onlyFamily || id.startsWith(onlyFamily);
  if (row.expected === 'pass') {
    const alarms = ids.filter(inFamily);
    pass++;
    if (alarms.length === 0) passOk++;
    for (const f of failures.filter((f) => inFamily(`${f.clause}-${f.test}`)))
      tally(`${f.clause}-${f.test}`).falseAlarms.push(`${path.basename(row.file)}: ${f.examples[0]}`);
  } else if (inFamily(row.rule)) {
    fail++;
    if (ids.length > 0) failOk++;
    else console.log(`  no rule fails ${row.file}`);
    const ofClause = ids.some((id) => id.replace(/-\d+$/, '') === row.clause);
    if (ids.includes(row.rule)) tally(row.rule).caught++;
    else if (ofClause) tally(row.rule).byClause++;
    else tally(row.rule).missed.push(`${path.basename(row.file)} (found: ${ids.join(', ') || 'nothing'})`);
  }
}
const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
console.log(
  `${onlyPart ?? 'PDF/A and PDF/UA'}${onlyFamily ? ` ${onlyFamily}` : ''}: conforming files with no alarm ${passOk}/${pass} (${pct(passOk, pass)}), failing files that fail ${failOk}/${fail} (${pct(failOk, fail)})`,
);
for (const [id, t] of [...byRule].sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))) {
  if (t.missed.length === 0 && t.falseAlarms.length === 0) {
    console.log(
      `  ${id}: caught ${t.caught}${t.byClause ? `, by another rule of its clause ${t.byClause}` : ''}`,
    );
    continue;
  }
  console.log(
    `  ${id}: caught ${t.caught}, by another rule of its clause ${t.byClause}, missed ${t.missed.length}, false alarms ${t.falseAlarms.length} (family ${family(id)})`,
  );
  for (const m of t.missed.slice(0, 6)) console.log(`      missed ${m}`);
  for (const a of t.falseAlarms.slice(0, 6)) console.log(`      false alarm ${a}`);
}
