import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import type { Schemas } from '../contract/schemas.js';
import type { BlobInfo, BlobStore } from '../blobs/blob-store.js';
import { endpointView } from '../events/endpoints/endpoints.js';
import { outputKey } from '../runs/outputs.js';
import type { FileRow, RecordKind, Store, TenantRow, UploadRow } from '../store/types.js';
import { tenantView, tokenView } from '../tenants/admin-views.js';
import type { TokenView } from '../tenants/service.js';
import { fileView, uploadView } from '../uploads/views.js';

/** Records per JSON lines file: a file is built in memory, so its size is bounded (a few MB). */
export const RECORDS_PER_FILE = 5_000;

export type Manifest = Schemas['TenantExportManifest'];
type Counts = Manifest['counts'];
type ManifestEntry = Manifest['entries'][number];

/** What the archive of one tenant is read from. */
export interface ArchiveSources {
  store: Store;
  blobs: BlobStore;
  listTokens(tenantId: string): Promise<TokenView[]>;
  now(): string;
}

export interface Progress {
  done: number;
  total: number;
}

/** A stored file's name as an archive path's last part: no separators, no `.` or `..`, no control bytes. */
export function safeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[/\\\u0000-\u001f\u007f]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

const PAGED_KINDS: readonly RecordKind[] = [
  'uploads',
  'files',
  'runs',
  'transactions',
  'events',
  'webhook_attempts',
];

/**
 * Writes the tar archive of everything `tenant` owns to `key` (the layout is adminCreateTenantExport's in
 * openapi.yaml), calling `progress` as entries are written (it may throw to stop: the lease was lost).
 */
export async function writeArchive(
  sources: ArchiveSources,
  tenant: TenantRow,
  exportId: string,
  key: string,
  progress: (progress: Progress) => Promise<void>,
): Promise<BlobInfo & { entries: number }> {
  const { store, blobs } = sources;
  const tenantId = tenant.id;
  const counts: Counts = {
    tokens: 0,
    uploads: 0,
    files: 0,
    runs: 0,
    transactions: 0,
    events: 0,
    webhook_endpoints: 0,
    webhook_attempts: 0,
  };
  const tokens = await sources.listTokens(tenantId);
  const endpoints = await store.webhooks.list(tenantId);
  counts.tokens = tokens.length;
  counts.webhook_endpoints = endpoints.length;
  for (const kind of PAGED_KINDS) counts[kind] = await store.offboarding.countRecords(tenantId, kind);
  // every record, every file's bytes, and each run's outputs as one step
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0) + counts.files + counts.runs;
  let done = 0;
  const step = async (n: number) => {
    done += n;
    await progress({ done, total });
  };

  const pack = tar.pack();
  const stored = blobs.putStream(key, Readable.from(pack as AsyncIterable<Buffer>));
  const entries: ManifestEntry[] = [];
  const mtime = new Date(sources.now());
  const addBytes = async (name: string, bytes: Buffer) => {
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: bytes.length, mtime }, bytes, (error) => (error ? reject(error) : resolve())),
    );
    entries.push({ path: name, size_bytes: bytes.length, sha256: sha256(bytes) });
  };
  const addStream = async (name: string, size: number, source: AsyncIterable<Buffer>) => {
    const hash = createHash('sha256');
    let written = 0;
    const finished = new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name, size, mtime }, (error) => (error ? reject(error) : resolve()));
      void (async () => {
        try {
          for await (const chunk of source) {
            hash.update(chunk);
            written += chunk.length;
            if (!entry.write(chunk)) await once(entry as never, 'drain');
          }
          // a streamx Writable: its end() takes no chunk (the types say it must)
          (entry as unknown as { end(): void }).end();
        } catch (error) {
          entry.destroy(error as Error);
          reject(error as Error);
        }
      })();
    });
    await finished;
    if (written !== size) throw new Error(`${name}: ${written} bytes read, ${size} expected`);
    entries.push({ path: name, size_bytes: size, sha256: hash.digest('hex') });
  };
  /** Writes the lines in files of RECORDS_PER_FILE, numbered from 1. */
  const lines = () => {
    let buffered: string[] = [];
    let file = 0;
    return {
      async push(kind: string, line: string) {
        buffered.push(line);
        if (buffered.length === RECORDS_PER_FILE) await this.flush(kind);
      },
      async flush(kind: string) {
        if (buffered.length === 0) return;
        file += 1;
        const text = `${buffered.join('\n')}\n`;
        const n = buffered.length;
        buffered = [];
        await addBytes(`records/${kind}/${String(file).padStart(6, '0')}.jsonl`, Buffer.from(text));
        await step(n);
      },
    };
  };
  const writeAll = async (kind: string, rows: readonly unknown[]) => {
    const out = lines();
    for (const row of rows) await out.push(kind, JSON.stringify(row));
    await out.flush(kind);
  };
  /** Every page of `kind`, each row made a line by `line`. */
  const writePaged = async (
    kind: RecordKind,
    line: (row: Record<string, unknown>) => Promise<string> | string,
  ) => {
    const out = lines();
    let cursor: string | null = null;
    do {
      const page = await store.offboarding.recordPage(tenantId, kind, cursor, 1_000);
      for (const row of page.rows) await out.push(kind, await line(row));
      cursor = page.next;
    } while (cursor !== null);
    await out.flush(kind);
  };

  try {
    await addBytes('tenant.json', Buffer.from(`${JSON.stringify(tenantView(tenant), null, 2)}\n`));
    await writeAll('tokens', tokens.map(tokenView));
    const now = sources.now();
    await writePaged('uploads', async (row) => {
      const upload = row as unknown as UploadRow;
      return JSON.stringify(uploadView(upload, await store.uploads.parts(upload.id), now));
    });
    await writePaged('files', (row) =>
      JSON.stringify(fileView({ ...(row as unknown as FileRow), encrypted: Boolean(row['encrypted']) })),
    );
    await writePaged('runs', (row) => row['record'] as string);
    await writePaged('transactions', (row) => row['record'] as string);
    await writePaged('events', (row) => row['record'] as string);
    await writeAll('webhook_endpoints', endpoints.map(endpointView));
    await writePaged('webhook_attempts', (row) => {
      const { seq: _seq, ...attempt } = row;
      return JSON.stringify(attempt);
    });
    // the bytes: every stored file, then every run's outputs
    let cursor: string | null = null;
    do {
      const page = await store.offboarding.recordPage(tenantId, 'files', cursor, 1_000);
      for (const row of page.rows) {
        const file = row as unknown as FileRow;
        const opened = await blobs.open(file.storage_key);
        await addStream(`files/${file.id}/${safeName(file.file_name)}`, opened.size, opened.stream);
        await step(1);
      }
      cursor = page.next;
    } while (cursor !== null);
    cursor = null;
    do {
      const page = await store.offboarding.recordPage(tenantId, 'runs', cursor, 1_000);
      for (const row of page.rows) {
        const run = JSON.parse(row['record'] as string) as Schemas['Run'];
        for (const name of run.output_files) {
          const opened = await blobs.open(outputKey(tenantId, run.id, run.queue_message_id, name));
          await addStream(`runs/${run.id}/${name}`, opened.size, opened.stream);
        }
        await step(1);
      }
      cursor = page.next;
    } while (cursor !== null);
    const manifest: Manifest = {
      format: 1,
      export_id: exportId,
      tenant_id: tenantId,
      created_at: now,
      counts,
      entries,
    };
    await addBytes('manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    await stored.catch(() => undefined);
    throw error;
  }
  const info = await stored;
  return { ...info, entries: total };
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
