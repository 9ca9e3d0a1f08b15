#!/usr/bin/env node
// The outside judge of the contract: the HTTP suites, each harness behind Stoplight Prism in proxy mode
// (https://docs.stoplight.io/docs/prism), which checks every answer, headers included, against the contract
// of the version the answer says it was rendered at (`Open-Tenant-Version`): one Prism per version, each
// with the contract the server serves at `/openapi.yaml?version=` (test/helpers/harness.ts routes them).
// Prism is installed on first use into node_modules/.cache (pinned; 90 MB, so not a dependency of every
// install). Prints each distinct response violation Prism logged and exits 1 when there is any.
//
//   npm run judge:prism                      # the sqlite project's HTTP suites
//   npm run judge:prism -- --project postgres test/http/retries.test.ts
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PRISM_VERSION = '5.14.2';
const root = path.resolve(import.meta.dirname, '..');
const prefix = path.join(root, 'node_modules', '.cache', `prism-cli-${PRISM_VERSION}`);
const bin = path.join(prefix, 'node_modules', '.bin', 'prism');
if (!existsSync(bin)) {
  console.log(`installing @stoplight/prism-cli@${PRISM_VERSION} into ${prefix}`);
  const installed = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `@stoplight/prism-cli@${PRISM_VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (installed.status !== 0) process.exit(installed.status ?? 1);
}

const logDir = mkdtempSync(path.join(tmpdir(), 'prism-judge-'));
const args = process.argv.slice(2);
const suites = args.length > 0 ? args : ['--project', 'sqlite', 'test/http/'];
const run = spawnSync(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', ...suites], {
  stdio: 'inherit',
  env: { ...process.env, TEST_THROUGH_PRISM: 'true', PRISM_BIN: bin, PRISM_LOG_DIR: logDir },
});

const violations = new Map();
let answers = 0;
const routed = new Map();
for (const name of readdirSync(logDir)) {
  for (const line of readFileSync(path.join(logDir, name), 'utf8').split('\n')) {
    if (line.includes('< Received forward response')) answers += 1;
    const found = /Violation: (response\.\S+ .*)$/.exec(line);
    // each Prism logs as prism-<version, or admin>-<port>.log: its violations say which contract judged
    const contract = /^prism-(.+)-\d+\.log$/.exec(name)?.[1] ?? '?';
    const key = found && `${contract}: ${found[1]}`;
    if (key) violations.set(key, (violations.get(key) ?? 0) + 1);
    // the router's log: at which version each public answer was judged, or why it was not
    const how = name.startsWith('router-') && /^(judged at \S+|unjudged [a-z ]+?|failed) [A-Z]+ /.exec(line);
    if (how) routed.set(how[1], (routed.get(how[1]) ?? 0) + 1);
  }
}
const failed = routed.get('failed') ?? 0;
console.log(
  `\nPrism proxied ${answers} answers (logs in ${logDir}); response violations: ${violations.size} distinct`,
);
for (const [how, count] of [...routed].sort()) console.log(`  public answers ${how}: ${count}`);
for (const [message, count] of [...violations].sort((a, b) => b[1] - a[1]))
  console.log(`  ${count} x ${message}`);
console.log(`the suites themselves ${run.status === 0 ? 'passed' : `exited ${run.status}`} behind Prism`);
process.exit(violations.size > 0 || failed > 0 ? 1 : 0);
