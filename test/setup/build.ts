/**
 * The suites that start server, worker and admin processes run the built service (dist/), as `npm start`
 * does: a process started through tsx spends about 1.4 s more getting ready, and the suites start hundreds.
 * dist/ is rebuilt here when a source is newer than it, so a suite never runs stale code.
 */
import { spawnSync } from 'node:child_process';

export default function setup() {
  const result = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('dist/ could not be built (scripts/build-if-stale.mjs)');
}
