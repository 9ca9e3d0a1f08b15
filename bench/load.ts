import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isExecutable } from './common.js';

/**
 * Load from wrk, a C generator, so that the figures are the server's and not the load generator's: a Node
 * generator on the same two cores saturates first and squeezes every ratio towards 1.0. On a machine with
 * more than one core wrk is pinned to core 0 and the servers under test to core 1 (`pinnedServerCores`).
 * Every measurement checks itself: it fails when wrk used more CPU than the server it loaded.
 */
export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  warmupS: number;
  durationS: number;
  /** The process under load: its CPU time is compared with wrk's. */
  serverPid: number;
  /** The status class every answer must have: 2 (the default) or 4 (an auth-failure storm). */
  expectStatusClass?: 2 | 4;
  /** Lua that shapes the requests (wrk's `request` function), for writes: POST bodies, tokens in turn. */
  requestLua?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** CPU seconds used during the measured part, by wrk and by the server. */
  loadCpuS: number;
  serverCpuS: number;
}

const exec = promisify(execFile);
const multiCore = availableParallelism() > 1;
/** Where the servers under test run; wrk takes core 0. */
export const pinnedServerCores = multiCore ? '1' : undefined;

const reportLua = `done = function(summary, latency, requests)
  io.write(string.format('\\nRESULT {"requests":%d,"duration_us":%d,"status_errors":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d}\\n',
    summary.requests, summary.duration, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99)))
end
`;
// wrk reads its Lua from files: one directory for this bench process, removed when it exits
const scriptDir = mkdtempSync(path.join(tmpdir(), 'ota-bench-wrk-'));
process.on('exit', () => rmSync(scriptDir, { recursive: true, force: true }));
const report = path.join(scriptDir, 'report.lua');
writeFileSync(report, reportLua);
let scripts = 0;

function cpuSeconds(pid: number): number {
  // utime and stime are fields 14 and 15, in clock ticks (100 per second on Linux); the comm field may hold spaces
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function wrk(options: LoadOptions, seconds: number) {
  let script = report;
  if (options.requestLua) {
    script = path.join(scriptDir, `request-${scripts++}.lua`);
    writeFileSync(script, `${options.requestLua}\n${reportLua}`);
  }
  const args = [
    ...(multiCore ? ['taskset', '-c', '0'] : []),
    'wrk',
    '-t1',
    `-c${options.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    options.url,
  ];
  // bash's `times` prints the CPU time of its children (wrk) on its second line
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const { stdout } = await exec('bash', ['-c', `${quoted} && times`], { maxBuffer: 1 << 20 });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`wrk printed no result: ${stdout}`);
  const result = JSON.parse(line.slice('RESULT '.length)) as {
    requests: number;
    duration_us: number;
    status_errors: number;
    socket_errors: number;
    p50_us: number;
    p99_us: number;
  };
  const times = stdout
    .trim()
    .split('\n')
    .at(-1)!
    .match(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/);
  const loadCpuS = times
    ? Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])
    : Number.NaN;
  return { ...result, loadCpuS };
}

/**
 * Why the load generator cannot run here, or undefined: checked once before any scenario, so that a machine
 * without wrk hears how to get it instead of a raw exec failure halfway through.
 */
export function loadGeneratorMissing(): string | undefined {
  const onPath = (process.env.PATH ?? '')
    .split(path.delimiter)
    .some((dir) => dir !== '' && isExecutable(path.join(dir, 'wrk')));
  if (onPath) return undefined;
  return (
    'wrk is not installed: the HTTP scenarios load the server with it. Install it (Debian/Ubuntu: ' +
    '`sudo apt-get install wrk`, macOS: `brew install wrk`), or run only the scenarios without it: ' +
    '`npm run bench -- --only 5,8`'
  );
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupS > 0) await wrk(options, options.warmupS);
  const before = cpuSeconds(options.serverPid);
  const r = await wrk(options, options.durationS);
  const serverCpuS = cpuSeconds(options.serverPid) - before;
  const what = new URL(options.url).pathname + new URL(options.url).search;
  if (r.requests === 0) throw new Error(`${what}: no responses`);
  if (r.socket_errors > 0) throw new Error(`${what}: ${r.socket_errors} socket errors or timeouts`);
  const expected = options.expectStatusClass ?? 2;
  const wrong = expected === 2 ? r.status_errors : r.requests - r.status_errors;
  if (wrong > 0) throw new Error(`${what}: ${wrong} of ${r.requests} answers not ${expected}xx`);
  if (r.loadCpuS > serverCpuS)
    throw new Error(
      `${what}: wrk used more CPU (${r.loadCpuS.toFixed(2)} s) than the server (${serverCpuS.toFixed(2)} s): the figure would be wrk's`,
    );
  return {
    rps: r.requests / (r.duration_us / 1e6),
    p50: r.p50_us / 1000,
    p99: r.p99_us / 1000,
    requests: r.requests,
    loadCpuS: r.loadCpuS,
    serverCpuS,
  };
}
