// Whether `npm test` runs the S3 suites: an S3 server is configured (TEST_S3_ENDPOINT) or Swift is installed
// to start one. When not, the suites are skipped, and said so; TEST_S3_REQUIRED=true makes that a failure.
import { spawnSync } from 'node:child_process';

export function s3TestsAvailable() {
  if (process.env.TEST_S3_ENDPOINT) return { run: true };
  const found = spawnSync('sh', ['-c', 'command -v swift-proxy-server && command -v memcached'], {
    stdio: 'ignore',
  });
  if (found.status === 0) return { run: true };
  return {
    run: false,
    reason:
      'S3 suites skipped: no S3 server configured (set TEST_S3_ENDPOINT) and Swift is not installed (bash scripts/swift.sh install)',
  };
}

// The `haproxy` project (every HTTP suite through HAProxy in front of two servers) runs where HAProxy is
// installed; TEST_S3_REQUIRED=true (CI) makes its absence a failure too.
export function haproxyTestsAvailable() {
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], { stdio: 'ignore' });
  if (found.status === 0) return { run: true };
  return { run: false, reason: 'HAProxy suites skipped: HAProxy is not installed (apt-get install haproxy)' };
}
