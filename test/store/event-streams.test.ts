/**
 * The live streams of one process against the engine's own event log: a client that reads nothing is cut
 * off once MAX_STREAM_UNREAD_BYTES waits for it, and not before.
 */
import type { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.js';
import { EventStreams } from '../../src/events/streaming/stream-hub.js';
import { createLogger } from '../../src/kernel/logger.js';
import { Tenants } from '../../src/tenants/service.js';
import { systemClock } from '../../src/kernel/time.js';
import { openTestStore, type TestStore } from '../helpers/engine.js';
import { completedUpload } from '../helpers/store-rows.js';

let opened: TestStore;
let tenantId: string;
const hubs: EventStreams[] = [];
beforeEach(async () => {
  opened = await openTestStore();
  tenantId = (await new Tenants(opened.store, systemClock).create('t')).tenant_id;
});
afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.close();
  await opened.close();
});

function hub(maxUnreadBytes: string): EventStreams {
  const config = loadConfig({ MAX_STREAM_UNREAD_BYTES: maxUnreadBytes, EVENT_POLL_MS: '20' }).events;
  const streams = new EventStreams(opened.store, config, systemClock, createLogger('silent'));
  hubs.push(streams);
  return streams;
}

/** Writes events until `stream` has at least `bytes` waiting, or it was closed. */
async function fillUntil(stream: PassThrough, bytes: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!stream.destroyed && stream.writableLength < bytes && Date.now() < deadline) {
    await Promise.all(Array.from({ length: 20 }, () => completedUpload(opened.store, tenantId)));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a stream whose client reads nothing', () => {
  it('is closed once more than MAX_STREAM_UNREAD_BYTES wait for it', async () => {
    const stream = await hub('4096').open(tenantId, undefined);
    await fillUntil(stream, 64 * 1024);
    expect(stream.destroyed).toBe(true);
  });

  it('is kept while less waits', async () => {
    const stream = await hub(String(1024 * 1024)).open(tenantId, undefined);
    await fillUntil(stream, 8 * 1024);
    expect(stream.destroyed).toBe(false);
    expect(stream.writableLength).toBeGreaterThanOrEqual(8 * 1024);
  });
});
