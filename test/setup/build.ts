/**
 * The suites that start server, worker and admin processes run the built service (dist/), as `npm start`
 * does: a process started through tsx spends about 1.4 s more getting ready, and the suites start hundreds.
 * dist/ is rebuilt here when a source is newer than it, so a suite never runs stale code. The shared
 * servers the run's projects need start meanwhile.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { TestProject } from 'vitest/node';
import { startWhatProjectsNeed, stopUnused } from './shared-servers.js';

export default async function setup(project: TestProject) {
  startWhatProjectsNeed(project);
  const build = spawn(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  const [code] = (await once(build, 'exit')) as [number | null];
  if (code !== 0) {
    // no project will take the servers started for it: stop them before the run ends
    await stopUnused();
    throw new Error('dist/ could not be built (scripts/build-if-stale.mjs)');
  }
  return stopUnused;
}
