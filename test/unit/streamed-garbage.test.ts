import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { HashingLimit } from '../../src/blobs/hashing-limit.js';
import { STREAMED_BYTES_PER_YOUNG_COLLECTION } from '../../src/blobs/streamed-garbage.js';

const CHUNK = 64 * 1024;

/** Young-generation collections V8 reports while `work` runs. */
async function youngCollectionsDuring(work: () => Promise<void>): Promise<number> {
  let young = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as unknown as { detail: { kind: number } };
      if (detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) young += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  await work();
  // gc entries are delivered after the collection, on a later turn
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return young;
}

/** `bytes` in fresh 64 KiB Buffers, as a socket hands a request body over. */
function freshChunks(bytes: number): Readable {
  let left = bytes;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const size = Math.min(CHUNK, left);
      left -= size;
      this.push(Buffer.alloc(size, 7));
    },
  });
}

const discard = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

describe('bytes streamed through the blob meter', () => {
  it('collect the young generation every few MiB, so their Buffers never wait for a full collection', async () => {
    const intervals = 10;
    const bytes = intervals * STREAMED_BYTES_PER_YOUNG_COLLECTION;
    const young = await youngCollectionsDuring(() =>
      pipeline(freshChunks(bytes), new HashingLimit(bytes, true), discard()),
    );
    // 40 MiB in 64 KiB Buffers allocate well under 1 MB of JS objects: left to itself V8 scavenges
    // seldom if at all here, and frees the Buffers by full collections
    expect(young).toBeGreaterThanOrEqual(intervals - 1);
  });

  it('leave no gc function behind for the process to see', () => {
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
