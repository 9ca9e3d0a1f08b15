/**
 * The run list and the auth-failure storm of two checkouts over HTTP, in one process and interleaved rounds,
 * for "a change must not move these figures": `node_modules/.bin/tsx bench/http-ab.ts <base checkout>
 * [runs] [rounds]` (default 50,000 runs, 5 rounds). The base checkout needs its own `npm ci` (or a
 * `node_modules` link) and `node scripts/transpile.mjs`; this one its build. Each side seeds its own database
 * with its own seed code, both servers are pinned to the servers' core and loaded by wrk in turn (the order
 * alternates per round), and every ratio is the median of the rounds' pairs, printed with both sides' figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { median, round } from './common.js';
import { type LoadResult, load, loadGeneratorMissing } from './load.js';
import type { Proc } from './processes.js';

interface Side {
  name: string;
  seedRuns(dir: string, name: string, count: number): Promise<{ token: string }>;
  startApi(
    dir: string,
    port: number,
    env: Record<string, string>,
    options: { pinned: boolean },
  ): Promise<Proc>;
}

const base = path.resolve(process.argv[2] ?? '');
if (!process.argv[2]) throw new Error('usage: tsx bench/http-ab.ts <base checkout> [runs] [rounds]');
const runs = Number(process.argv[3] ?? 50_000);
const rounds = Number(process.argv[4] ?? 5);
const missing = loadGeneratorMissing();
if (missing) throw new Error(missing);

async function side(name: string, root: string): Promise<Side> {
  const seed = (await import(path.join(root, 'bench/seed.ts'))) as Pick<Side, 'seedRuns'>;
  const processes = (await import(path.join(root, 'bench/processes.ts'))) as Pick<Side, 'startApi'>;
  return { name, seedRuns: seed.seedRuns, startApi: processes.startApi };
}

const sides = [await side('base', base), await side('head', path.resolve(import.meta.dirname, '..'))];
const dirs: string[] = [];
const servers: { name: string; api: Proc; token: string }[] = [];
try {
  for (const [i, s] of sides.entries()) {
    const dir = mkdtempSync(path.join(tmpdir(), `ota-ab-${s.name}-`));
    dirs.push(dir);
    const { token } = await s.seedRuns(dir, 'runs', runs);
    const api = await s.startApi(dir, 18_900 + i, { EMBEDDED_WORKER: 'false' }, { pinned: true });
    servers.push({ name: s.name, api, token });
  }
  const measures = [
    { what: 'run list, first page', token: (t: string) => t, status: 2 as const },
    { what: 'auth-failure storm (401s)', token: () => `ota_${'A'.repeat(43)}`, status: 4 as const },
  ];
  for (const { what, token, status } of measures) {
    const results = new Map<string, LoadResult[]>();
    for (let r = 0; r < rounds; r++) {
      for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
        const o = await load({
          url: `${s.api.url}/api/open/runs?limit=20`,
          headers: { authorization: `Bearer ${token(s.token)}` },
          connections: 16,
          warmupS: 1,
          durationS: 5,
          serverPid: s.api.child.pid!,
          expectStatusClass: status,
        });
        results.set(s.name, [...(results.get(s.name) ?? []), o]);
      }
    }
    const [b, h] = [results.get('base')!, results.get('head')!];
    const ratios = h.map((o, i) => o.rps / b[i]!.rps);
    const figures = (list: LoadResult[]) =>
      `${Math.round(median(list.map((o) => o.rps)))} req/s, p99 ${round(median(list.map((o) => o.p99)))} ms`;
    console.log(
      `${what}, ${runs} runs: base ${figures(b)} | head ${figures(h)} | ratio ${round(median(ratios), 3)} ` +
        `(rounds ${ratios.map((x) => round(x)).join(' ')})`,
    );
  }
} finally {
  for (const s of servers) await s.api.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
