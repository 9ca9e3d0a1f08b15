import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes streamed through this process (upload bodies on their way to the blob store, objects read back)
 * arrive as fresh Buffers whose memory lives outside V8's heap. Their small wrappers hardly fill the young
 * generation, so no scavenge frees them; full mark-compacts of the whole heap do, started by that external
 * memory or by V8's young-generation headroom: 8-10 a second while a part streams into S3 at ~270 MB/s, a
 * third of the process's CPU (a perf profile of the API, bench/README scenario 10). A young-generation collection
 * every few MiB streamed frees them in about a millisecond, before a full collection is due (every 4 MiB kept
 * the peak RSS a little lower than every 8, at the same speed).
 */
export const STREAMED_BYTES_PER_YOUNG_COLLECTION = 4 * 1024 * 1024;

type CollectGarbage = (options: { type: 'minor'; execution: 'sync' }) => void;

/**
 * V8's own `gc`, reached without starting Node with `--expose-gc`: a context made while the flag is on
 * gets the function, and the flag goes off again so that no other context gets one.
 */
function exposedCollector(): CollectGarbage | undefined {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') return existing as CollectGarbage;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as CollectGarbage) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

let collect: CollectGarbage | null | undefined;
let sinceLastCollection = 0;

/** Counts bytes a stream has passed on, and collects the young generation every few MiB of them. */
export function noteStreamedBytes(bytes: number): void {
  sinceLastCollection += bytes;
  if (sinceLastCollection < STREAMED_BYTES_PER_YOUNG_COLLECTION) return;
  sinceLastCollection = 0;
  if (collect === undefined) collect = exposedCollector() ?? null;
  collect?.({ type: 'minor', execution: 'sync' });
}
