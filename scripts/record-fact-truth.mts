/**
 * Records what poppler and qpdf say of the repository's PDFs (test/helpers/fact-truth.ts) into
 * test/fixtures/pdfs/facts-truth.json, the ground truth the preflight facts are tested against. `npm test`
 * needs neither tool. Run it after adding a PDF (Debian `poppler-utils` and `qpdf`):
 *
 *   node --import tsx scripts/record-fact-truth.mts
 *
 * With `--agreement [FILE...]` it records nothing: it prints, per fact, how many comparisons with poppler agree
 * for the files given (the repository's, by default) and the share of (file, fact) pairs that agree wholly,
 * with the files where each fact disagrees; for PDFs kept outside the repository (the bench's Debian set).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compareFacts, type FactTruth, recordTruth } from '../test/helpers/fact-truth.js';

const ROOT = path.resolve(import.meta.dirname, '../test/fixtures/pdfs');
const repositoryPdfs = () =>
  ['real', 'derived', 'profiles', 'documents'].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir))
      .sort()
      .filter((name) => name.endsWith('.pdf'))
      .map((name) => path.join(ROOT, dir, name)),
  );

async function agreement(files: string[]) {
  // the reader and the rules, loaded only here: recording the truth needs neither
  const { Pdfium } = await import('../src/pdf/pdfium.js');
  const { inProcessReport } = await import('../test/helpers/in-process-report.js');
  const pdfium = await Pdfium.create(1024 * 2 ** 20);
  const totals: Record<string, [number, number]> = {};
  const disagreeing: Record<string, string[]> = {};
  let pairs = 0;
  let agreeingPairs = 0;
  for (const file of files) {
    const truth = recordTruth(file);
    if (!truth) continue;
    for (const [fact, [agree, compared]] of Object.entries(
      compareFacts(truth, inProcessReport(pdfium, file)),
    )) {
      const sum = (totals[fact] ??= [0, 0]);
      sum[0] += agree;
      sum[1] += compared;
      pairs++;
      if (agree === compared) agreeingPairs++;
      else (disagreeing[fact] ??= []).push(path.basename(file));
    }
  }
  for (const [fact, [agree, compared]] of Object.entries(totals).sort())
    console.log(`${fact.padEnd(28)} ${agree}/${compared}  ${(disagreeing[fact] ?? []).join(' ')}`);
  console.log(
    `(file, fact) pairs agreeing: ${agreeingPairs}/${pairs} = ${((100 * agreeingPairs) / pairs).toFixed(2)} %`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--agreement') {
  await agreement(args.length > 1 ? args.slice(1) : repositoryPdfs());
} else {
  const truth: Record<string, FactTruth> = {};
  for (const file of repositoryPdfs()) {
    const found = recordTruth(file);
    if (found) truth[path.relative(ROOT, file)] = found;
  }
  writeFileSync(path.join(ROOT, 'facts-truth.json'), `${JSON.stringify(truth, null, 1)}\n`);
  console.log(`${Object.keys(truth).length} files`);
}
