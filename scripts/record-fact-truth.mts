/**
 * Records what poppler and qpdf say of the repository's PDFs (test/helpers/fact-truth.ts) into
 * test/fixtures/pdfs/facts-truth.json, the ground truth the preflight facts are tested against. `npm test`
 * needs neither tool. Run it after adding a PDF (Debian `poppler-utils` and `qpdf`):
 *
 *   node --import tsx scripts/record-fact-truth.mts
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type FactTruth, recordTruth } from '../test/helpers/fact-truth.js';

const ROOT = path.resolve(import.meta.dirname, '../test/fixtures/pdfs');
const truth: Record<string, FactTruth> = {};
for (const dir of ['real', 'derived', 'profiles', 'documents']) {
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    if (!name.endsWith('.pdf')) continue;
    const found = recordTruth(path.join(ROOT, dir, name));
    if (found) truth[`${dir}/${name}`] = found;
  }
}
writeFileSync(path.join(ROOT, 'facts-truth.json'), `${JSON.stringify(truth, null, 1)}\n`);
console.log(`${Object.keys(truth).length} files`);
