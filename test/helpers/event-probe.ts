/**
 * A black-box probe of the live stream under one tenant's burst, over HTTP only (no access to the server's
 * insides): tenant B creates runs as fast as it can with its stream open, and reopens a second stream midway
 * with Last-Event-ID, while tenant A creates a run now and then and times its `run.created` on A's stream.
 * `scripts/probe-events.mts` runs it against any server (`npm start`); test/process/event-burst.test.ts runs
 * it on both engines.
 */
import { sseEvents } from './receiver.js';

export interface ProbeOptions {
  url: string;
  /** The quiet tenant, whose events are timed. */
  tokenA: string;
  /** The tenant that bursts. */
  tokenB: string;
  /** A PDF each tenant uploads once; every run is of it. */
  pdf: Uint8Array;
  /** Runs B tries to create (each is three events once worked off). */
  runs: number;
  /** B's creations in flight at once. */
  concurrency?: number;
  /** How long, after the burst, the streams may take to show every event B's list holds. */
  settleMs?: number;
  /**
   * After the burst, A goes on while B's runs are worked off (two more events each), until B's stream has
   * the end of every run B created or this time is up.
   */
  tailMs?: number;
}

export interface ProbeResult {
  /** B's creations answered 201, and refused (a queue limit: no event). */
  created: number;
  refused: number;
  /** For each of A's runs: from the 201 to its run.created on A's stream; null when it never came. */
  aDelaysMs: (number | null)[];
  /** The events B's list held at the end. */
  listed: number;
  /** Listed events B's first stream never got; events it got twice; got out of the list's order. */
  missing: number;
  duplicates: number;
  outOfOrder: boolean;
  /** Listed events after the Last-Event-ID that the reopened stream never got; and those it got twice. */
  resumeExpected: number;
  resumeMissing: number;
  resumeDuplicates: number;
  seconds: number;
}

interface Message {
  id: string;
  type: string;
  runId: string | undefined;
  at: number;
}

class StreamReader {
  readonly messages: Message[] = [];
  private readonly controller = new AbortController();
  private waiters: (() => void)[] = [];
  done: Promise<void> = Promise.resolve();

  static async open(url: string, token: string, lastEventId?: string): Promise<StreamReader> {
    const reader = new StreamReader();
    const response = await fetch(`${url}/api/open/events/stream`, {
      headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: reader.controller.signal,
    });
    if (response.status !== 200)
      throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    reader.done = reader.consume(response.body!);
    return reader;
  }

  private async consume(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const message of sseEvents(body)) {
        if (!message.id) continue;
        const event = JSON.parse(message.data) as { type: string; data?: { object?: { id?: string } } };
        this.messages.push({
          id: message.id,
          type: event.type,
          runId: event.data?.object?.id,
          at: Date.now(),
        });
        for (const wake of this.waiters.splice(0)) wake();
      }
    } catch {
      // aborted by close()
    }
  }

  /** Resolves when `found` holds (checked at every message), or false after `timeoutMs`. */
  async until(found: () => boolean, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!found()) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return true;
  }

  close(): void {
    this.controller.abort();
  }
}

async function request(url: string, token: string, method: string, route: string, json?: unknown) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

async function uploadOnce(url: string, token: string, pdf: Uint8Array): Promise<string> {
  const created = await request(url, token, 'POST', '/api/open/uploads', {
    file_name: 'probe.pdf',
    size_bytes: pdf.length,
  });
  const upload = created.body.data as { upload_id: string; part_size: number; part_count: number };
  for (let n = 1; n <= upload.part_count; n++) {
    const res = await fetch(`${url}/api/open/uploads/${upload.upload_id}/parts/${n}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: pdf.subarray((n - 1) * upload.part_size, n * upload.part_size),
    });
    if (res.status !== 200) throw new Error(`part ${n} answered ${res.status}`);
  }
  const done = await request(url, token, 'POST', '/api/open/uploads/complete', {
    upload_id: upload.upload_id,
  });
  if (done.status !== 200) throw new Error(`complete answered ${done.status}`);
  return done.body.data.file_id as string;
}

/** Every event id of the tenant in the list, oldest first. */
async function listedIds(url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = (await (
      await fetch(`${url}/api/open/events?limit=100${after ? `&starting_after=${after}` : ''}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { id: string }[]; next_cursor: string | null };
    ids.push(...page.data.map((e) => e.id));
    if (page.next_cursor === null) return ids.reverse();
    after = page.next_cursor;
  }
}

const duplicatesIn = (ids: string[]) => ids.length - new Set(ids).size;

export async function probeEventStream(options: ProbeOptions): Promise<ProbeResult> {
  const { url, tokenA, tokenB, pdf, runs } = options;
  const started = Date.now();
  const [fileA, fileB] = await Promise.all([uploadOnce(url, tokenA, pdf), uploadOnce(url, tokenB, pdf)]);
  const streamA = await StreamReader.open(url, tokenA);
  // what B's list holds from before its stream opened is not the stream's to send
  const before = new Set(await listedIds(url, tokenB));
  const streamB = await StreamReader.open(url, tokenB);
  let resumed: StreamReader | undefined;
  let resumedAfter: string | undefined;

  let created = 0;
  let refused = 0;
  let next = 0;
  const burst = async () => {
    while (next < runs) {
      next += 1;
      if (next === Math.ceil(runs / 2) && !resumed) {
        // midway: a second stream resumes after the last event the first one has shown
        await streamB.until(() => streamB.messages.length > 0, 10_000);
        resumedAfter = streamB.messages.at(-1)?.id;
        resumed = await StreamReader.open(url, tokenB, resumedAfter);
      }
      const res = await request(url, tokenB, 'POST', '/api/open/runs', { file_id: fileB });
      if (res.status === 201) created += 1;
      else refused += 1;
    }
  };

  let bursting = true;
  const aDelaysMs: (number | null)[] = [];
  const quietTenant = async () => {
    const waits: Promise<void>[] = [];
    while (bursting) {
      const res = await request(url, tokenA, 'POST', '/api/open/runs', { file_id: fileA });
      if (res.status === 201) {
        const runId = res.body.data.id as string;
        const answeredAt = Date.now();
        const slot = aDelaysMs.push(null) - 1;
        const seen = () => streamA.messages.find((m) => m.type === 'run.created' && m.runId === runId);
        waits.push(
          streamA
            .until(() => seen() !== undefined, 30_000)
            .then(() => {
              const message = seen();
              aDelaysMs[slot] = message ? message.at - answeredAt : null;
            }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await Promise.all(waits);
  };

  const quiet = quietTenant();
  await Promise.all(Array.from({ length: options.concurrency ?? 32 }, burst));
  const ended = () =>
    streamB.messages.filter((m) => m.type === 'run.succeeded' || m.type === 'run.failed').length;
  await streamB.until(() => ended() >= created, options.tailMs ?? 120_000);
  bursting = false;
  await quiet;

  const listed = (await listedIds(url, tokenB)).filter((id) => !before.has(id));
  const settleMs = options.settleMs ?? 60_000;
  const got = () => new Set(streamB.messages.map((m) => m.id));
  await streamB.until(() => {
    const have = got();
    return listed.every((id) => have.has(id));
  }, settleMs);
  const expectedAfter = resumedAfter ? listed.slice(listed.indexOf(resumedAfter) + 1) : listed;
  const resumedIds = () => new Set(resumed?.messages.map((m) => m.id));
  if (resumed) {
    const stream = resumed;
    await stream.until(() => {
      const have = resumedIds();
      return expectedAfter.every((id) => have.has(id));
    }, settleMs);
  }
  for (const stream of [streamA, streamB, resumed]) stream?.close();

  const streamed = streamB.messages.map((m) => m.id);
  const have = new Set(streamed);
  const inList = new Set(listed);
  const order = streamed.filter((id) => inList.has(id));
  const resumedHave = resumedIds();
  return {
    created,
    refused,
    aDelaysMs,
    listed: listed.length,
    missing: listed.filter((id) => !have.has(id)).length,
    duplicates: duplicatesIn(streamed),
    outOfOrder: order.slice(0, listed.length).some((id, i) => id !== listed[i]),
    resumeExpected: expectedAfter.length,
    resumeMissing: expectedAfter.filter((id) => !resumedHave.has(id)).length,
    resumeDuplicates: duplicatesIn(resumed?.messages.map((m) => m.id) ?? []),
    seconds: (Date.now() - started) / 1000,
  };
}
