/** Output for people: aligned tables, and one progress line on stderr when stderr is a terminal. */

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/**
 * Columns padded to their widest cell, a header row first; the columns named in `right` are aligned to
 * the right (amounts, counts).
 */
export function table(
  rows: Record<string, unknown>[],
  columns: [key: string, header: string][],
  right: string[] = [],
): string {
  if (rows.length === 0) return '(none)';
  const cells = [
    columns.map(([, header]) => header),
    ...rows.map((row) =>
      columns.map(([key]) => (row[key] === null || row[key] === undefined ? '-' : String(row[key]))),
    ),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells
    .map((line) =>
      line
        .map((cell, i) =>
          right.includes(columns[i]![0]) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const BAR_WIDTH = 24;

function bar(fraction: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--:--';
  const s = Math.round(seconds);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** One line redrawn in place; silent when stderr is not a terminal (pipes and CI get no noise). */
export class ProgressLine {
  private readonly started = Date.now();
  private lastDraw = 0;
  private readonly enabled = process.stderr.isTTY === true;

  private draw(text: string, final: boolean): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (!final && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    process.stderr.write(`\r\x1b[2K${text}${final ? '\n' : ''}`);
  }

  bytes(label: string, done: number, total: number, extra = ''): void {
    const seconds = (Date.now() - this.started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.NaN;
    this.draw(
      `${label} ${bar(total ? done / total : 1)} ${formatBytes(done)} / ${formatBytes(total)}  ${formatBytes(rate)}/s  ETA ${duration(eta)}  ${extra}`,
      done >= total,
    );
  }

  count(label: string, done: number, total: number, extra = ''): void {
    this.draw(
      `${label.padEnd(16)} ${bar(total ? done / total : 0)} ${done}/${total} tasks  ${extra}`,
      total > 0 && done >= total,
    );
  }
}
