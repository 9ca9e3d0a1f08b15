import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where a test's server or worker was when it hung at start. CI has met a server that stayed alive for 30 s
 * without listening and without a word on stderr or in its log, and it never happened where it could be
 * watched: so the failure itself says what the process was doing. Every child is started with Node's
 * diagnostic report on SIGUSR2 (nothing else sends it), written to a directory of this test process.
 */
const reportDir = path.join(tmpdir(), `ota-hang-reports-${process.pid}`);

/** The flags that make a child write its diagnostic report when sent SIGUSR2. */
export function hangReportArgs(): string[] {
  return ['--report-on-signal', `--report-directory=${reportDir}`];
}

/** The kernel's view of a process: its state, CPU seconds so far and what each thread waits in. */
function kernelView(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which may itself hold spaces and parentheses
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    const threads = readdirSync(`/proc/${pid}/task`).map((tid) => {
      const read = (file: string) => {
        try {
          return readFileSync(`/proc/${pid}/task/${tid}/${file}`, 'utf8').trim();
        } catch {
          return '?';
        }
      };
      return `${read('comm')}:${read('wchan')}`;
    });
    return `state ${fields[0]}, cpu ${(ticks / 100).toFixed(2)} s, threads ${threads.join(' ')}`;
  } catch (error) {
    return `no /proc view (${String(error)})`;
  }
}

interface DiagnosticReport {
  javascriptStack?: { stack?: string[] };
  libuv?: { type?: string; is_active?: boolean; remoteEndpoint?: unknown }[];
}

/** The JavaScript stack and the active libuv handles, from the report (its native stack is the report's own). */
function summarize(report: DiagnosticReport): string {
  const js = report.javascriptStack?.stack?.slice(0, 12).join(' | ') ?? 'no JavaScript stack';
  const handles = (report.libuv ?? [])
    .filter((handle) => handle.is_active)
    .map(
      (handle) =>
        `${handle.type}${handle.remoteEndpoint ? `->${JSON.stringify(handle.remoteEndpoint)}` : ''}`,
    )
    .join(', ');
  return `js: ${js}; active handles: ${handles || 'none'}`;
}

/**
 * What a hung child is doing: the kernel's view at once, then its diagnostic report if its event loop
 * writes one within 3 s (a loop blocked in synchronous code does not, which says as much).
 */
export async function describeHungProcess(pid: number | undefined): Promise<string> {
  if (pid === undefined) return 'no pid';
  const kernel = kernelView(pid);
  mkdirSync(reportDir, { recursive: true });
  const already = new Set(readdirSync(reportDir));
  try {
    process.kill(pid, 'SIGUSR2');
  } catch (error) {
    return `${kernel}; no report (${String(error)})`;
  }
  for (let waited = 0; waited < 3_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = readdirSync(reportDir).find((name) => !already.has(name) && name.includes(`.${pid}.`));
    if (!written) continue;
    const file = path.join(reportDir, written);
    try {
      // a report is written in one go; a half-written one is read again on the next turn
      const report = JSON.parse(readFileSync(file, 'utf8')) as DiagnosticReport;
      rmSync(file, { force: true });
      return `${kernel}; ${summarize(report)}`;
    } catch {
      continue;
    }
  }
  return `${kernel}; no diagnostic report within 3 s (its event loop is blocked)`;
}
