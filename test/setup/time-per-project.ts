/**
 * A vitest reporter that ends the run with the time each project took, so that a slower suite shows where
 * it got slower. `busy` adds up the files' own durations (their tests, hooks and imports); `wall` is from
 * the project's first file starting to its last file ending, which is less when files run side by side.
 * TEST_TIMES_FILE=path also writes every file's duration there as JSON, for profiling and for the order the
 * next runs hand files out in (test/setup/durations.json, read by test/setup/longest-first.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface Span {
  files: number;
  tests: number;
  busyMs: number;
  firstStart: number;
  lastEnd: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class TimePerProject implements Reporter {
  private started = Date.now();
  private readonly modules: { project: string; file: string; ms: number; tests: number }[] = [];
  private readonly spans = new Map<string, Span>();

  onTestRunStart(): void {
    this.started = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    const { duration, collectDuration, setupDuration, prepareDuration, environmentSetupDuration } =
      module.diagnostic();
    const ms = duration + collectDuration + setupDuration + prepareDuration + environmentSetupDuration;
    const project = module.project.name || 'default';
    const tests = [...module.children.allTests()].length;
    this.modules.push({ project, file: path.relative(process.cwd(), module.moduleId), ms, tests });
    const end = Date.now();
    const span = this.spans.get(project) ?? { files: 0, tests: 0, busyMs: 0, firstStart: end, lastEnd: end };
    span.files++;
    span.tests += tests;
    span.busyMs += ms;
    span.firstStart = Math.min(span.firstStart, end - ms);
    span.lastEnd = end;
    this.spans.set(project, span);
  }

  onTestRunEnd(): void {
    const rows = [...this.spans.entries()].map(([name, s]) => [
      name,
      String(s.files),
      String(s.tests),
      seconds(s.busyMs),
      seconds(s.lastEnd - s.firstStart),
    ]);
    rows.push(['whole run', '', '', '', seconds(Date.now() - this.started)]);
    const header = ['project', 'files', 'tests', 'busy', 'wall'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    process.stdout.write(`\nTime per project\n${line(header)}\n${rows.map(line).join('\n')}\n`);
    const out = process.env.TEST_TIMES_FILE;
    if (out)
      writeFileSync(
        out,
        `${JSON.stringify(
          this.modules.map((m) => ({ ...m, ms: Math.round(m.ms) })).sort((a, b) => b.ms - a.ms),
          null,
          2,
        )}\n`,
      );
  }
}
