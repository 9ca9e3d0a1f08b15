/**
 * HAProxy in front of several API processes, as the scale-out deployment runs it (and the tests, the bench
 * and `npm run stack` start it): round-robin, each server health-checked on /healthz, a request whose
 * connection was refused sent to another server. `npm run stack` adds a second frontend for the admin API,
 * on loopback, in front of the processes' admin listeners. HAProxy comes from Debian (`apt-get install haproxy`).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export interface Backend {
  name: string;
  port: number;
}

/**
 * The admin API's own frontend: its own port, always on 127.0.0.1, routed only to the processes' admin
 * listeners (ADMIN_PORT). The public frontend never reaches them: its backend holds the public ports only.
 */
export interface AdminFrontend {
  port: number;
  backends: Backend[];
}

/**
 * Checks every 200 ms, out after 2 failures: a dead server (connection refused) stops getting requests within
 * about 0.5 s; a live but busy one has 1 s to answer each check.
 */
export function haproxyConfig(
  port: number,
  backends: Backend[],
  host = '127.0.0.1',
  /** How long a check may wait for its answer before it counts as failed. */
  checkTimeoutMs = 1000,
  admin?: AdminFrontend,
): string {
  const servers = (list: Backend[]) =>
    list.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n');
  const checks = `  balance roundrobin
  option httpchk GET /healthz
  http-check expect status 200
  default-server inter 200ms fastinter 100ms downinter 500ms fall 2 rise 2`;
  return `global
  maxconn 4000

defaults
  mode http
  timeout connect 2s
  timeout client 310s
  timeout server 310s
  # event streams are long answers kept alive by a heartbeat every 15 s (inside the two timeouts above);
  # a connection HAProxy has switched to tunnel mode is held this long
  timeout tunnel 1h
  timeout http-request 30s
  # a busy process may take a while to answer its health check; a dead one refuses the connection at once
  timeout check ${checkTimeoutMs}ms
  option http-keep-alive
  # the client's address for the servers' per-address pacing (they believe it from TRUST_PROXY only)
  option forwardfor
  # a connection refused by a dead server is retried on another: the request never reached it
  retries 3
  option redispatch 1
  retry-on conn-failure

frontend api
  bind ${host}:${port}
  default_backend apis

backend apis
${checks}
${servers(backends)}
${
  admin
    ? `
# the platform's admin API: its own port, on loopback only, and its own servers (the admin listeners)
frontend admin
  bind 127.0.0.1:${admin.port}
  default_backend admins

backend admins
${checks}
${servers(admin.backends)}
`
    : ''
}`;
}

export function haproxyInstalled(): boolean {
  return spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
}

export interface RunningHaproxy {
  url: string;
  /** The admin API's frontend, when it was asked for. */
  adminUrl?: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts HAProxy with its configuration in `dir`, and waits until it routes to a healthy server. */
export async function startHaproxy(
  dir: string,
  port: number,
  backends: Backend[],
  /** `taskset` CPU list to run it on (the bench keeps it off the load generator's core). */
  cpus?: string,
  checkTimeoutMs?: number,
  /** The admin API's frontend too, as `npm run stack` runs it. */
  admin?: AdminFrontend,
): Promise<RunningHaproxy> {
  const config = path.join(dir, `haproxy-${port}.cfg`);
  writeFileSync(config, haproxyConfig(port, backends, '127.0.0.1', checkTimeoutMs, admin));
  const args = ['-db', '-f', config];
  const child = cpus
    ? spawn('taskset', ['-c', cpus, 'haproxy', ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    : spawn('haproxy', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${stderr.trim()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`haproxy did not route to a healthy server: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const adminUrl = admin && `http://127.0.0.1:${admin.port}`;
  while (adminUrl) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${stderr.trim()}`);
    try {
      if ((await fetch(`${adminUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`haproxy's admin frontend did not route: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    adminUrl,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
