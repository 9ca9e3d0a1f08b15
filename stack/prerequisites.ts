/**
 * What `npm run stack` needs before it starts anything: the programs it runs and the ports it listens on.
 * Checked all at once, so that a new machine learns in one line everything there is to install, instead of
 * finding out one server at a time with the first ones left running.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';

export interface Prerequisite {
  /** what is missing, as a user names it */
  what: string;
  /** the command that brings it */
  install: string;
}

const onPath = (command: string, env: NodeJS.ProcessEnv) =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore', env }).status === 0;

/** The programs the stack runs that this machine lacks (PostgreSQL's are checked by findPostgres). */
export function missingPrograms(
  env: NodeJS.ProcessEnv = process.env,
  swiftConf = '/etc/swift/swift.conf',
): Prerequisite[] {
  const missing: Prerequisite[] = [];
  // swift reads its hash path prefix and suffix from /etc/swift/swift.conf and nowhere else
  if (!onPath('swift-proxy-server', env) || !onPath('memcached', env) || !existsSync(swiftConf))
    missing.push({ what: 'OpenStack Swift', install: 'bash scripts/swift.sh install' });
  if (!onPath('haproxy', env)) missing.push({ what: 'HAProxy', install: 'apt-get install haproxy' });
  if (!onPath('curl', env)) missing.push({ what: 'curl', install: 'apt-get install curl' });
  return missing;
}

/** One line that says everything there is to install. */
export function installLine(missing: Prerequisite[]): string {
  return `npm run stack needs ${missing.map((m) => m.what).join(', ')}; install with: ${missing
    .map((m) => m.install)
    .join(' && ')}`;
}

/** Whether something already listens on 127.0.0.1:`port`. */
function portBusy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(true));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** The ports of `wanted` that something else holds, in order. */
export async function busyPorts(wanted: number[]): Promise<number[]> {
  const busy = await Promise.all(wanted.map(portBusy));
  return wanted.filter((_, i) => busy[i]);
}

/** One part of the stack, started: how to stop it again. */
export interface Started {
  name: string;
  stop(): Promise<void> | void;
}

/**
 * Starts the parts in order; when one fails, stops those already started (the last first) and rethrows, so
 * that a failed start leaves nothing running and the next start finds its ports free.
 */
export async function startAll(parts: Array<() => Promise<Started>>): Promise<Started[]> {
  const started: Started[] = [];
  try {
    for (const start of parts) started.push(await start());
    return started;
  } catch (error) {
    for (const part of started.reverse()) {
      try {
        await part.stop();
      } catch (stopError) {
        process.stderr.write(`could not stop ${part.name}: ${(stopError as Error).message}\n`);
      }
    }
    throw error;
  }
}
