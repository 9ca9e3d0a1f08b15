/**
 * Hands the files to the workers longest first, across projects, by the durations of an earlier run
 * (test/setup/durations.json): a fresh clone has no vitest results cache, and without one vitest orders
 * each project's files by size, project after project, so a long file could start last and run alone.
 * Files the table does not know (new ones) go first. Refresh the table with
 * `TEST_TIMES_FILE=test/setup/durations.json npm test`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

interface FileTime {
  project: string;
  file: string;
  ms: number;
}

const table = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as FileTime[];
const known = new Map(table.map((t) => [`${t.project} ${t.file}`, t.ms]));

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ms = (spec: TestSpecification) =>
      known.get(`${spec.project.name} ${path.relative(process.cwd(), spec.moduleId)}`) ??
      Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => ms(b) - ms(a));
  }
}
