import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/contract/paths.js';
import { bearer, isExecutable, median, round, type Row } from './common.js';
import type { LoadResult } from './load.js';
import { type Proc, startApi } from './processes.js';
import type { SeededTenant } from './seed.js';

const exec = promisify(execFile);

/** The better-sqlite3 both sides load: the last line that runs on Node 20, so that SQLite is the same on both. */
const SHARED_SQLITE = 'better-sqlite3@12.11.1';

export interface RuntimesOptions {
  work: string;
  quick: boolean;
  rounds: number;
  /** `--compare-node PATH`, if given. */
  compareNode?: string;
  port(): number;
  record(row: Row): void;
  seedRuns(dataDir: string, name: string, count: number): Promise<SeededTenant>;
  runsToSeed: number;
  listLoad(server: Proc, route: string, headers: Record<string, string>): Promise<LoadResult>;
  /** The well-formed fixtures: the diagnosis set. */
  diagnosisFiles: { file: string; pages: number }[];
}

interface Runtime {
  node: string;
  version: string;
  /** Options that make this runtime's server load its own build of the shared better-sqlite3. */
  nodeArgs: string[];
  env: Record<string, string>;
}

const versionOf = (node: string) =>
  spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();

/** `--compare-node`, else the first `node` on PATH outside the project whose major differs from ours. */
export function otherNode(given?: string): string {
  if (given) {
    if (!isExecutable(given)) throw new Error(`--compare-node ${given}: not an executable`);
    return given;
  }
  const ownMajor = process.versions.node.split('.')[0];
  const projectBins = path.join(PROJECT_ROOT, 'node_modules');
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir === '' || path.resolve(dir).startsWith(projectBins)) continue;
    const candidate = path.join(dir, 'node');
    if (!isExecutable(candidate)) continue;
    const version = versionOf(candidate);
    if (version && version.slice(1).split('.')[0] !== ownMajor) return candidate;
  }
  throw new Error(
    `no Node.js other than ${process.version} on PATH: give one with --compare-node /path/to/bin/node`,
  );
}

/**
 * `better-sqlite3` 12 installed from the registry into `dir` and built by node-gyp for `node`, against the
 * headers that come with that Node.js (the registry's builds and Debian's carry them), so nothing is
 * downloaded from outside the registry.
 */
async function sqliteFor(node: string, dir: string): Promise<Runtime> {
  const version = versionOf(node);
  const copy = path.join(dir, 'node_modules', 'better-sqlite3');
  if (!existsSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'bench-runtime', private: true, allowScripts: { 'better-sqlite3': true } }),
    );
    const prefix = path.resolve(path.dirname(node), '..');
    const headers = existsSync(path.join(prefix, 'include', 'node', 'node_version.h'));
    console.log(`  building ${SHARED_SQLITE} for Node.js ${version} (about a minute)`);
    await exec(
      'npm',
      ['install', SHARED_SQLITE, '--no-save', '--no-package-lock', '--no-audit', '--no-fund'],
      {
        cwd: dir,
        env: {
          ...process.env,
          // node-gyp builds for the first node on its PATH
          PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
          ...(headers ? { npm_config_nodedir: prefix } : {}),
        },
        maxBuffer: 64 * 2 ** 20,
      },
    );
  }
  const probe = spawnSync(node, ['-e', `new (require(${JSON.stringify(copy)}))(':memory:')`]);
  if (probe.status !== 0) throw new Error(`${SHARED_SQLITE} does not load on ${version}: ${probe.stderr}`);
  return {
    node,
    version,
    nodeArgs: ['--import', path.join(PROJECT_ROOT, 'bench', 'better-sqlite3-from.mjs')],
    // the start-up check refuses Node.js < 22 because of the project's better-sqlite3, which this replaces
    env: { BENCH_BETTER_SQLITE3: copy, ALLOW_UNSUPPORTED_NODE: 'true' },
  };
}

/**
 * Scenario 12 (only with `--only 12`): the same build on the project's runtime (Node.js 24, this process's)
 * and on another (the machine's Node.js 20, say), side by side in one run: the run list through the whole
 * request path (interleaved rounds) and pdf-preflight diagnosis of the fixture set (alternating blocks).
 * V8 and its WebAssembly compilers differ between the two; PDFium runs as wasm.
 */
export async function runtimes(options: RuntimesOptions): Promise<void> {
  // kept between bench runs (a build takes a minute), one per Node.js version
  const cache = (node: string) =>
    path.join(PROJECT_ROOT, 'node_modules', '.cache', 'ota-bench', `better-sqlite3-12-${versionOf(node)}`);
  const ours = await sqliteFor(process.execPath, cache(process.execPath));
  const otherBinary = otherNode(options.compareNode);
  const other = await sqliteFor(otherBinary, cache(otherBinary));
  const label = `Node.js ${ours.version} vs ${other.version}`;

  // the request path: both servers on one database (reads only), pinned to the server core in turn
  const dir = path.join(options.work, 'runtimes');
  const tenant = await options.seedRuns(dir, 'runtimes', options.runsToSeed);
  const start = (dataDir: string, runtime: Runtime, env: Record<string, string>, pinned: boolean) =>
    startApi(
      dataDir,
      options.port(),
      { ...env, ...runtime.env },
      { pinned, node: runtime.node, nodeArgs: runtime.nodeArgs },
    );
  const a = await start(dir, ours, { PARSER_THREADS: '0' }, true);
  const b = await start(dir, other, { PARSER_THREADS: '0' }, true);
  const route = '/api/open/runs?limit=20';
  const auth = bearer(tenant.token);
  await options.listLoad(a, route, auth);
  await options.listLoad(b, route, auth);
  const oursRuns: LoadResult[] = [];
  const otherRuns: LoadResult[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const o = await options.listLoad(b, route, auth);
    const n = await options.listLoad(a, route, auth);
    otherRuns.push(o);
    oursRuns.push(n);
    ratios.push(n.rps / o.rps);
  }
  await a.stop();
  await b.stop();
  options.record({
    scenario: '12 runtime',
    variant: `run list, first page, ${options.runsToSeed / 1000}k runs: ${label}`,
    rps: median(oursRuns.map((x) => x.rps)),
    p50: median(oursRuns.map((x) => x.p50)),
    p99: median(oursRuns.map((x) => x.p99)),
    value: `${other.version} ${Math.round(median(otherRuns.map((x) => x.rps)))} req/s, p50 ${round(median(otherRuns.map((x) => x.p50)))} ms`,
    ratio: median(ratios),
  });

  // diagnosis: one server at a time (the parser pool takes the cores), blocks alternating between the two
  const diagnosisDir = path.join(options.work, 'runtimes-diagnosis');
  const files = options.diagnosisFiles;
  const setPages = files.reduce((sum, f) => sum + f.pages, 0);
  const blocks = options.quick ? 2 : 4;
  const perBlock = options.quick ? 10 : 40;
  let fileIds: string[] | undefined;
  const { token } = await options.seedRuns(diagnosisDir, 'diagnosis', 0);
  const seconds = new Map<Runtime, number[]>([
    [ours, []],
    [other, []],
  ]);
  for (let block = 0; block < blocks; block++) {
    for (const runtime of block % 2 === 0 ? [ours, other] : [other, ours]) {
      const api = await start(diagnosisDir, runtime, {}, false);
      fileIds ??= await uploadAll(api, token, files);
      const warmup = block < 2 ? 10 : 0;
      if (warmup) await diagnose(api, token, fileIds, warmup);
      seconds.get(runtime)!.push(await diagnose(api, token, fileIds, perBlock));
      await api.stop();
    }
  }
  const pagesPerSecond = (runtime: Runtime) =>
    (setPages * perBlock * blocks) / seconds.get(runtime)!.reduce((sum, s) => sum + s, 0);
  const oursPages = pagesPerSecond(ours);
  const otherPages = pagesPerSecond(other);
  options.record({
    scenario: '12 runtime',
    variant: `pdf-preflight, fixture set x ${perBlock * blocks}, default parser pool: ${label}`,
    value: `${round(oursPages, 1)} against ${round(otherPages, 1)} pages/s`,
    ratio: oursPages / otherPages,
  });
}

async function uploadAll(api: Proc, token: string, files: { file: string }[]): Promise<string[]> {
  const json = { ...bearer(token), 'content-type': 'application/json' };
  const ids: string[] = [];
  for (const f of files) {
    const bytes = readFileSync(f.file);
    const res = await fetch(`${api.url}/api/open/uploads`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ file_name: path.basename(f.file), size_bytes: bytes.length }),
    });
    if (res.status !== 201) throw new Error(`createUpload: ${res.status} ${await res.text()}`);
    const started = (await res.json()) as { data: { upload_id: string } };
    await fetch(`${api.url}/api/open/uploads/${started.data.upload_id}/parts/1`, {
      method: 'PUT',
      headers: { ...bearer(token), 'content-type': 'application/pdf' },
      body: bytes,
    });
    const done = (await (
      await fetch(`${api.url}/api/open/uploads/complete`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ upload_id: started.data.upload_id }),
      })
    ).json()) as { data: { file_id: string } };
    ids.push(done.data.file_id);
  }
  return ids;
}

/** Seconds from the first run's creation until `rounds` rounds of the set have all finished. */
async function diagnose(api: Proc, token: string, fileIds: string[], rounds: number): Promise<number> {
  const json = { ...bearer(token), 'content-type': 'application/json' };
  const pending = async () => {
    let total = 0;
    for (const status of ['queued', 'running']) {
      const page = (await (
        await fetch(`${api.url}/api/open/runs?status=${status}&limit=1`, { headers: bearer(token) })
      ).json()) as { total: number };
      total += page.total;
    }
    return total;
  };
  const started = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const id of fileIds) {
      const res = await fetch(`${api.url}/api/open/runs`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ file_id: id, target: 'pdf-preflight' }),
      });
      if (res.status !== 201) throw new Error(`createRun: ${res.status} ${await res.text()}`);
    }
  }
  const deadline = Date.now() + 600_000;
  while ((await pending()) > 0) {
    if (Date.now() > deadline) throw new Error('the diagnosis runs did not finish within 10 minutes');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (performance.now() - started) / 1000;
}
