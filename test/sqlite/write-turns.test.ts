import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { storeThreadEnded, storeThreadShare } from '../../src/store/open.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteDialect } from '../../src/store/sqlite/dialect.js';

// The API's event loop and the run thread each have a connection to the SQLite file
// (src/store/sqlite/write-turns.ts): these are two such threads, the second a helper that holds a write
// transaction open for as long as the test says.

let dir: string;
const threads: Worker[] = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ota-turns-'));
});
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.terminate()));
  rmSync(dir, { recursive: true, force: true });
});

function mainThread(busyTimeoutMs?: number): SqliteDialect {
  const db = openDatabase(dir);
  db.exec('CREATE TABLE turns_seen (seq INTEGER PRIMARY KEY, who TEXT NOT NULL)');
  return new SqliteDialect(db, busyTimeoutMs);
}

/** The helper thread, once it holds its transaction open. */
async function threadHolding(): Promise<Worker> {
  const thread = new Worker(new URL('../helpers/write-turn-holder.mjs', import.meta.url), {
    workerData: { dataDir: dir, share: storeThreadShare() },
  });
  threads.push(thread);
  const said = (what: string) =>
    new Promise<void>((resolve, reject) => {
      const hear = (message: Record<string, unknown>) => {
        if (!(what in message)) return;
        thread.off('message', hear);
        resolve();
      };
      thread.on('message', hear);
      thread.once('error', reject);
    });
  await said('ready');
  thread.postMessage({ hold: 'thread' });
  await said('holding');
  return thread;
}

/** The longest this thread's event loop went without running a 5 ms timer while `during` ran. */
async function longestStall(during: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticks = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await during();
  } finally {
    clearInterval(ticks);
  }
  return Math.max(longest, performance.now() - last);
}

const seen = (sql: SqliteDialect) => sql.column<string>('SELECT who FROM turns_seen ORDER BY seq');

// without the turns, the stalls below were the whole 5 s of SQLite's busy timeout; the bound leaves room for a
// loaded machine
const STALL_MS = 1000;

it("a write waits for another thread's transaction without stopping this thread's event loop, whose reads go on", async () => {
  const sql = mainThread();
  const thread = await threadHolding();
  let readMeanwhile: string[] | undefined;
  let waitedAfterCommit = 0;
  const stall = await longestStall(async () => {
    const write = sql.transaction((tx) => tx.run("INSERT INTO turns_seen (who) VALUES ('main')"));
    await sleep(300);
    readMeanwhile = await seen(sql);
    const committing = performance.now();
    thread.postMessage({ commit: true });
    await write;
    // woken by the other thread's give-back, not by the end of its wait
    waitedAfterCommit = performance.now() - committing;
  });
  expect(stall).toBeLessThan(STALL_MS);
  expect(waitedAfterCommit).toBeLessThan(STALL_MS);
  expect(readMeanwhile).toEqual([]);
  expect(await seen(sql)).toEqual(['thread', 'main']);
});

it('a write outside a transaction waits for the turn the same way', async () => {
  const sql = mainThread();
  const thread = await threadHolding();
  const stall = await longestStall(async () => {
    const write = sql.run("INSERT INTO turns_seen (who) VALUES ('main')");
    await sleep(300);
    thread.postMessage({ commit: true });
    await write;
  });
  expect(stall).toBeLessThan(STALL_MS);
  expect(await seen(sql)).toEqual(['thread', 'main']);
});

it("this thread's writes wait for each other at the gate, not for the turn it holds (no timeout between them)", async () => {
  const sql = mainThread(100);
  // started in one tick: the second would otherwise wait for the first's turn, and fail after 100 ms
  const slow = sql.transaction(async (tx) => {
    await sleep(300);
    return tx.run("INSERT INTO turns_seen (who) VALUES ('slow')");
  });
  const quick = sql.run("INSERT INTO turns_seen (who) VALUES ('quick')");
  await Promise.all([slow, quick]);
  expect(await seen(sql)).toEqual(['slow', 'quick']);
});

it('a thread that ends holding the turn (terminated mid-transaction) leaves it to the others', async () => {
  const sql = mainThread();
  const thread = await threadHolding();
  const threadId = thread.threadId;
  await thread.terminate();
  storeThreadEnded(threadId);
  const started = performance.now();
  await sql.transaction((tx) => tx.run("INSERT INTO turns_seen (who) VALUES ('main')"));
  expect(performance.now() - started).toBeLessThan(1000);
  // its transaction never committed
  expect(await seen(sql)).toEqual(['main']);
});

it('a write whose turn does not come within the busy timeout fails as SQLite busy, and the next one succeeds', async () => {
  const sql = mainThread(200);
  const thread = await threadHolding();
  const started = performance.now();
  let failure: unknown;
  const stall = await longestStall(() =>
    sql
      .transaction((tx) => tx.run("INSERT INTO turns_seen (who) VALUES ('late')"))
      .catch((error: unknown) => {
        failure = error;
      }),
  );
  expect(failure).toMatchObject({ code: 'SQLITE_BUSY' });
  expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  expect(stall).toBeLessThan(STALL_MS);
  thread.postMessage({ commit: true });
  await sql.transaction((tx) => tx.run("INSERT INTO turns_seen (who) VALUES ('main')"));
  expect(await seen(sql)).toEqual(['thread', 'main']);
});
