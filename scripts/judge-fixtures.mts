/**
 * Prints the conformance corpus's table (test/fixtures/pdfs/conformance, made by make-conformance-corpus.mts):
 * conforming files that pass, failing files caught, and each check against the files of its clause; then
 * sends every rule's fixture pair (test/rules/pdfa, test/rules/pdfua, and PDF/UA's allowance files) through the
 * public API.
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

// ---------------------------------------------------------------------------------------------------------
// Every rule's fixture pair (test/rules/pdfa/**, test/rules/pdfua/**) through the public API, as a user's
// files go: upload, a `pdf-archive` run held to the pair's part (`pdfa_part`) or a `pdf-accessibility` run,
// `report.json`. The pass file's verdict is to be pass; the fail file is to fail by its own rule; a PDF/UA
// allowance file's verdict is to be pass.
await judgeRulePairs();

async function judgeRulePairs(): Promise<void> {
  const { readdirSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const { pathToFileURL } = await import('node:url');
  const { createClient } = await import('../clients/typescript/src/index.js');
  const { loadConfig } = await import('../src/kernel/config.js');
  const { createLogger } = await import('../src/kernel/logger.js');
  const { startServer } = await import('../src/start/http-server.js');
  type Pairs = import('../test/rules/fixtures.js').FixturePairs;
  type RuleModule = { rules: import('../src/rules/rule.js').Rule[] };

  const root = path.resolve(import.meta.dirname, '../src/rules/pdfa');
  const files = (readdirSync(root, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.ts') && f.startsWith('part'),
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ota-pairs-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO_TENANT: 'false',
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_ANONYMOUS_PER_SECOND: '0',
    MAX_PENDING_UPLOADS_PER_TENANT: '100000',
    MAX_QUEUED_RUNS_PER_TENANT: '100000',
  });
  const server = await startServer(config, createLogger('silent'));
  const { token } = await server.services.tenants.create('pairs');
  const client = createClient({ baseUrl: server.url, token });
  const PARTS = { 'ISO 19005-1': 1, 'ISO 19005-2': 2, 'ISO 19005-3': 3 } as const;
  type Checked = { verdict: string; failed: string[] };
  /** `part` 1 to 3 is a pdf-archive run held to that part; 'ua' a pdf-accessibility run. */
  const judgeBytes = async (bytes: Uint8Array, name: string, part: 1 | 2 | 3 | 'ua'): Promise<Checked> => {
    const file = path.join(dataDir, name);
    writeFileSync(file, bytes);
    const upload = await client.uploadFile(file, { fileName: name });
    const created =
      part === 'ua'
        ? await client.createRun(upload.file_id, 'pdf-accessibility')
        : await client.createRun(upload.file_id, 'pdf-archive', { pdfa_part: part });
    const run = await client.waitForRun(created.id, { poll: true });
    if (run.status !== 'succeeded') return { verdict: `error: ${run.error ?? run.status}`, failed: [] };
    const report = JSON.parse((await client.downloadRunFile(run.id, 'report.json')).toString('utf8')) as {
      profile: { verdict: string; checks: { rules?: { clause: string; test: number; status: string }[] }[] };
    };
    return {
      verdict: report.profile.verdict,
      failed: report.profile.checks.flatMap((c) =>
        (c.rules ?? []).filter((r) => r.status === 'fail').map((r) => `${r.clause}-${r.test}`),
      ),
    };
  };
  let pairs = 0;
  const wrong: string[] = [];
  for (const file of files.sort()) {
    const rules = ((await import(pathToFileURL(path.join(root, file)).href)) as RuleModule).rules;
    if (rules.length === 0) continue;
    const fixtureFile = path.resolve(import.meta.dirname, '../test/rules/pdfa', file);
    let fixtures: Pairs;
    try {
      fixtures = ((await import(pathToFileURL(fixtureFile).href)) as { fixtures: Pairs }).fixtures;
    } catch {
      wrong.push(`${file}: no fixture file`);
      continue;
    }
    for (const rule of rules)
      for (const specification of rule.specifications) {
        const part = PARTS[specification as keyof typeof PARTS];
        const id = `${rule.clause}-${rule.test}`;
        const pair = fixtures[rule.test];
        if (!part || !pair) {
          wrong.push(`${specification} ${id}: no pair`);
          continue;
        }
        pairs++;
        const passed = await judgeBytes(pair.pass(part), `${id}-pass.pdf`, part);
        if (passed.verdict !== 'pass')
          wrong.push(
            `${specification} ${id}: the pass file's verdict is ${passed.verdict} (${passed.failed.join(', ')})`,
          );
        const failed = await judgeBytes(pair.fail(part), `${id}-fail.pdf`, part);
        if (!failed.failed.includes(id))
          wrong.push(
            `${specification} ${id}: the fail file does not fail by it (${failed.verdict}: ${failed.failed.join(', ') || 'nothing'})`,
          );
      }
  }
  // PDF/UA-1: each rule's pair, and the allowance files of its clause's fixture file
  const uaRoot = path.resolve(import.meta.dirname, '../src/rules/pdfua');
  const uaFiles = (readdirSync(uaRoot, { recursive: true }) as string[]).filter(
    (f) => f.endsWith('.ts') && f.includes('/'),
  );
  let uaPairs = 0;
  let allowances = 0;
  const uaWrong: string[] = [];
  for (const file of uaFiles.sort()) {
    const rules = ((await import(pathToFileURL(path.join(uaRoot, file)).href)) as RuleModule).rules;
    const fixtureFile = path.resolve(import.meta.dirname, '../test/rules/pdfua', file);
    const module = (await import(pathToFileURL(fixtureFile).href)) as {
      fixtures: Pairs;
      allowances?: Record<string, () => Uint8Array>;
    };
    for (const rule of rules) {
      const id = `${rule.clause}-${rule.test}`;
      const pair = module.fixtures[rule.test];
      if (!pair) {
        uaWrong.push(`ISO 14289-1 ${id}: no pair`);
        continue;
      }
      uaPairs++;
      const passed = await judgeBytes(pair.pass(2), `ua-${id}-pass.pdf`, 'ua');
      if (passed.verdict !== 'pass')
        uaWrong.push(
          `ISO 14289-1 ${id}: the pass file's verdict is ${passed.verdict} (${passed.failed.join(', ')})`,
        );
      const failed = await judgeBytes(pair.fail(2), `ua-${id}-fail.pdf`, 'ua');
      if (!failed.failed.includes(id))
        uaWrong.push(
          `ISO 14289-1 ${id}: the fail file does not fail by it (${failed.verdict}: ${failed.failed.join(', ') || 'nothing'})`,
        );
    }
    for (const [name, make] of Object.entries(module.allowances ?? {})) {
      allowances++;
      const judged = await judgeBytes(make(), `ua-allowance-${allowances}.pdf`, 'ua');
      if (judged.verdict !== 'pass')
        uaWrong.push(`allowance ${name}: the verdict is ${judged.verdict} (${judged.failed.join(', ')})`);
    }
  }
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(
    `\nrule fixture pairs through the API: ${pairs} pairs, ${pairs * 2 - wrong.length} of ${pairs * 2} files as expected`,
  );
  for (const line of wrong) console.log(`  ${line}`);
  console.log(
    `PDF/UA-1: ${uaPairs} pairs and ${allowances} allowance files, ${uaPairs * 2 + allowances - uaWrong.length} of ${uaPairs * 2 + allowances} as expected`,
  );
  for (const line of uaWrong) console.log(`  ${line}`);
}
