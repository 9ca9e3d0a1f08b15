import { parentPort, workerData } from 'node:worker_threads';
import { adoptStoreThreadShare, type StoreThreadShare } from '../../src/store/open.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteDialect } from '../../src/store/sqlite/dialect.js';

/**
 * Told `hold`, it opens a write transaction, inserts `row` into `turns_seen`, says `holding`, and commits when
 * told `commit`; told nothing more, it keeps the transaction open (until the test terminates the thread).
 */
const port = parentPort!;
const { dataDir, share } = workerData as { dataDir: string; share: StoreThreadShare };
adoptStoreThreadShare(share);
const sql = new SqliteDialect(openDatabase(dataDir));
let commit: (() => void) | undefined;
port.on('message', (message: { hold?: string; commit?: true }) => {
  if (message.commit) commit?.();
  if (message.hold === undefined) return;
  const row = message.hold;
  void sql.transaction(async (tx) => {
    await tx.run('INSERT INTO turns_seen (who) VALUES (?)', [row]);
    port.postMessage({ holding: row });
    await new Promise<void>((resolve) => (commit = resolve));
  });
});
port.postMessage({ ready: true });
