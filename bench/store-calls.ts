/**
 * The in-process cost of the store's hot calls on SQLite (the run list, a run, a token lookup, a creation),
 * for comparing two checkouts without HTTP's noise: `node_modules/.bin/tsx bench/store-calls.ts <checkout>`
 * (default: this one), on 30,000 runs. Prints the median of five rounds of 5,000 calls each (200 for a deep
 * page), after half as many to warm up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

interface Store {
  /** A tenant's unit of work (checkouts before it created runs through `runs.create`). */
  transaction?<T>(tenantId: string, work: (tx: { runs: { create: Creates } }) => Promise<T>): Promise<T>;
  runs: {
    create?: Creates;
    list(tenantId: string, filter: object, limit: number, offset: number): Promise<unknown>;
    get(tenantId: string, runId: string): Promise<unknown>;
  };
  tenants: { lookupToken(hash: string): Promise<unknown> };
  close(): Promise<void>;
}

type Creates = (run: unknown, maxQueued: number) => Promise<unknown>;

const root = path.resolve(process.argv[2] ?? '.');
const load = (file: string) => import(path.join(root, file)) as Promise<Record<string, unknown>>;
const { openSqliteStore } = (await load('src/store/sqlite/index.ts')) as {
  openSqliteStore(dir: string, lifecycle?: unknown): Store;
};
// builds before the run lifecycle was given to the store open it without one
const { runLifecycle } = await load('src/runs/lifecycle.ts').catch(() => ({ runLifecycle: undefined }));
const { Tenants } = (await load('src/tenants/service.ts')) as {
  Tenants: new (store: Store, clock: unknown) => { create(name: string): Promise<Record<string, string>> };
};
const { systemClock } = await load('src/kernel/time.ts');
const { completedUpload, queuedRun } = (await load('test/helpers/store-rows.ts')) as {
  completedUpload(store: Store, tenantId: string): Promise<{ fileId: string }>;
  queuedRun(ids: object, target?: string): unknown;
};

const dir = mkdtempSync(path.join(tmpdir(), 'ota-store-calls-'));
const store = openSqliteStore(dir, runLifecycle);
const tenant = await new Tenants(store, systemClock).create('t');
const tenantId = tenant.tenant_id!;
const { fileId } = await completedUpload(store, tenantId);
const ids = { tenantId, userId: tenant.user_id, fileId };
const createRun = (run: unknown, maxQueued: number) =>
  store.transaction
    ? store.transaction(tenantId, (tx) => tx.runs.create(run, maxQueued))
    : store.runs.create!(run, maxQueued);
const RUNS = 30_000;
for (let i = 0; i < RUNS; i++) await createRun(queuedRun(ids, i % 2 ? 'pdf-text' : 'pdf-preflight'), 1e9);

async function time(label: string, call: () => Promise<unknown>, calls = 5000): Promise<void> {
  for (let i = 0; i < calls / 2; i++) await call();
  const rounds: number[] = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await call();
    rounds.push(Number(process.hrtime.bigint() - started) / calls / 1000);
  }
  rounds.sort((a, b) => a - b);
  console.log(`${label.padEnd(24)} ${rounds[2]!.toFixed(1)} us (fastest round ${rounds[0]!.toFixed(1)})`);
}

console.log(`store calls of ${root} on SQLite, Node.js ${process.version}`);
await time('run list, first page', () => store.runs.list(tenantId, {}, 20, 0));
await time('run list, by target', () => store.runs.list(tenantId, { target: 'pdf-text' }, 20, 0));
await time(
  'run list, by target deep',
  () => store.runs.list(tenantId, { target: 'pdf-text' }, 20, RUNS / 3),
  200,
);
await time('run, not found', () => store.runs.get(tenantId, 'none'));
await time('token lookup', () => store.tenants.lookupToken('none'));
await time('run creation', () => createRun(queuedRun(ids), 1e9));
await store.close();
rmSync(dir, { recursive: true, force: true });
