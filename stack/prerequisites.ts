/**
 * What `npm run stack` needs before it starts anything: the programs it runs and the ports it listens on.
 * Checked all at once, so that a new machine learns in one line everything there is to install, instead of
 * finding out one server at a time with the first ones left running.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
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

/** A process that listens on a port: its pid and its command line. */
export interface PortHolder {
  pid: number;
  command: string;
}

/** The inodes of the TCP sockets that listen on each of `ports` (any address), from /proc/net/tcp{,6}. */
function listeningInodes(ports: Set<number>): Map<string, number> {
  const inodes = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // not Linux, or no IPv6
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue; // 0A: LISTEN
      const port = parseInt(fields[1]!.split(':').at(-1)!, 16);
      if (ports.has(port) && fields[9] !== '0') inodes.set(fields[9]!, port);
    }
  }
  return inodes;
}

/**
 * Which process holds each of `ports`, as far as this user can see: the listening socket's inode from
 * /proc/net/tcp, found among the open files of /proc/PID/fd. A port whose holder is another user's process
 * (its fds are hidden) or that is not in /proc (not Linux) is left out: the caller names the port alone.
 */
export function portHolders(ports: number[]): Map<number, PortHolder> {
  const holders = new Map<number, PortHolder>();
  const inodes = listeningInodes(new Set(ports));
  if (inodes.size === 0) return holders;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return holders;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to look at
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const port = inodes.get(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '');
      if (port === undefined || holders.has(port)) continue;
      let command = '';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replaceAll('\0', ' ');
      } catch {
        // exited meanwhile: the pid says enough
      }
      holders.set(port, {
        pid: Number(pid),
        command: command.length > 120 ? `${command.slice(0, 117)}...` : command,
      });
    }
  }
  return holders;
}

/** `8082: pid 1234 node server.js; 8090: pid 99 haproxy ...`: the holders that can be seen, of `busy`. */
export function describeHolders(busy: number[], holders = portHolders(busy)): string {
  return busy
    .filter((port) => holders.has(port))
    .map((port) => {
      const { pid, command } = holders.get(port)!;
      return `${port}: pid ${pid}${command ? ` ${command}` : ''}`;
    })
    .join('; ');
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
