import { randomUUID } from 'node:crypto';
import type { HeldKey } from '../../src/store/held-key.js';
import type {
  EventDataJson,
  FileRow,
  PendingLimits,
  RunRow,
  Store,
  UploadRow,
  WebhookEndpointRow,
} from '../../src/store/types.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { openTestStore, type TestStore } from './engine.js';
import { create } from '../../src/runs/lifecycle.js';

/**
 * A tenant's changes as the services make them, each in a unit of work of its own (the store suites make
 * one change at a time): an upload's creation records its effect on `heldKey`, its completion emits
 * upload.completed with `event`, as the upload service does.
 */
export function inUnits(store: Store) {
  return {
    runs: {
      create: (run: RunRow, maxQueued: number) =>
        store.transaction(run.tenant_id, (tx) => tx.runs.create(run, maxQueued)),
      rerun: (tenantId: string, runId: string, queueMessageId: string, at: string, maxQueued: number) =>
        store.transaction(tenantId, (tx) => tx.runs.rerun(runId, queueMessageId, at, maxQueued)),
      cancel: (tenantId: string, runId: string, at: string) =>
        store.transaction(tenantId, (tx) => tx.runs.cancel(runId, at)),
    },
    uploads: {
      create: (upload: UploadRow, limits: PendingLimits, heldKey?: HeldKey) =>
        store.transaction(
          upload.tenant_id,
          async (tx) => {
            const outcome = await tx.uploads.create(upload, limits);
            if (outcome === 'created') await tx.recordEffect(upload.id);
            return outcome;
          },
          heldKey,
        ),
      complete: (file: FileRow, event: EventDataJson) =>
        store.transaction(file.tenant_id, async (tx) => {
          const outcome = await tx.uploads.complete(file);
          if (outcome.created) await tx.emit('upload.completed', file.created_at, event);
          return outcome;
        }),
    },
    webhooks: {
      create: (endpoint: WebhookEndpointRow, max: number) =>
        store.transaction(endpoint.tenant_id, (tx) => tx.webhooks.create(endpoint, max)),
      rotate: (tenantId: string, endpointId: string, secret: string, previousUntil: string) =>
        store.transaction(tenantId, (tx) => tx.webhooks.rotate(endpointId, secret, previousUntil)),
      enable: (tenantId: string, endpointId: string) =>
        store.transaction(tenantId, (tx) => tx.webhooks.enable(endpointId)),
    },
  };
}

/**
 * A one-byte upload of `tenantId`, completed straight through the store: the file runs are made from (and,
 * as the store writes it, one upload.completed event). Returns the ids.
 */
export async function completedUpload(
  store: Store,
  tenantId: string,
  createdAt = new Date().toISOString(),
): Promise<{ uploadId: string; fileId: string }> {
  const uploadId = randomUUID();
  const fileId = randomUUID();
  await inUnits(store).uploads.create(
    {
      id: uploadId,
      tenant_id: tenantId,
      file_name: 'a.pdf',
      size_bytes: 1,
      content_type: 'application/pdf',
      sha256: null,
      part_size: 1,
      part_count: 1,
      status: 'pending',
      file_id: null,
      created_at: createdAt,
      expires_at: '9999-01-01T00:00:00.000Z',
      multipart_id: randomUUID(),
    },
    { count: 100_000, bytes: 100_000, now: createdAt },
  );
  await inUnits(store).uploads.complete(
    {
      id: fileId,
      tenant_id: tenantId,
      upload_id: uploadId,
      file_name: 'a.pdf',
      size_bytes: 1,
      sha256: 'x',
      page_count: 1,
      pdf_version: '1.4',
      encrypted: false,
      storage_key: 'k',
      created_at: createdAt,
    },
    JSON.stringify({ upload_id: uploadId, status: 'completed' }) as EventDataJson,
  );
  return { uploadId, fileId };
}

/** A queued run of `fileId`, as the run service makes one. */
export function queuedRun(
  ids: { tenantId: string; userId: string; fileId: string },
  target: RunRow['target'] = 'pdf-preflight',
): RunRow {
  return create({
    id: randomUUID(),
    tenant_id: ids.tenantId,
    file_id: ids.fileId,
    user_id: ids.userId,
    created_by: ids.userId,
    created_by_type: 'user',
    target,
    input_file_name: 'a.pdf',
    queue_message_id: randomUUID(),
    created_at: new Date().toISOString(),
    options: {},
  });
}

/** A store on a new database of the project's engine, with one tenant and one stored file of it. */
export async function storeWithFile(name = 't'): Promise<{
  opened: TestStore;
  store: Store;
  tenantId: string;
  userId: string;
  fileId: string;
}> {
  const opened = await openTestStore();
  const created = await new Tenants(opened.store, systemClock).create(name);
  const { fileId } = await completedUpload(opened.store, created.tenant_id);
  return { opened, store: opened.store, tenantId: created.tenant_id, userId: created.user_id, fileId };
}
