import path from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Whose turn it is to write one database file, among the threads of this process: 0 when nobody's, else the
 * holder's thread id + 1, in a SharedArrayBuffer that every thread with a connection to the file sees.
 *
 * SQLite's own answer to a second connection's write is busy_timeout, a sleep that blocks the waiting
 * thread. The API's event loop and the run thread (src/start/run-thread.ts) each have a connection: a request
 * that wrote while the run thread's transaction was open stopped every other request until it committed,
 * and longer while the run thread, at the idle policy, had no CPU. A turn is awaited instead
 * (`Atomics.waitAsync`), so the event loop answers reads meanwhile. Other processes (the admin CLI, a
 * worker process) still meet SQLite's lock and its busy_timeout.
 */
export type WriteTurn = Int32Array;

/** The turns of this process's database files, to hand to a thread that opens its own connections. */
export type SharedWriteTurns = [file: string, turn: WriteTurn][];

const turns = new Map<string, WriteTurn>();
const ME = threadId + 1;
const NOBODY = 0;

export function writeTurnOf(file: string): WriteTurn {
  const key = path.resolve(file);
  let turn = turns.get(key);
  if (!turn) turns.set(key, (turn = new Int32Array(new SharedArrayBuffer(4))));
  return turn;
}

export function sharedWriteTurns(): SharedWriteTurns {
  return [...turns];
}

/** A new thread takes its parent's turns before it opens a connection, so that both wait for each other. */
export function adoptWriteTurns(shared: SharedWriteTurns): void {
  for (const [file, turn] of shared) turns.set(file, turn);
}

/** Takes the turn if nobody has it; a thread that has it already has it once (it never nests). */
export function tryWriteTurn(turn: WriteTurn): boolean {
  return Atomics.compareExchange(turn, 0, NOBODY, ME) === NOBODY;
}

/** Resolves when the holder gives the turn back, or after `timeoutMs`; the caller tries again. */
export async function turnGivenBack(turn: WriteTurn, timeoutMs: number): Promise<void> {
  const holder = Atomics.load(turn, 0);
  if (holder === NOBODY) return;
  const wait = Atomics.waitAsync(turn, 0, holder, timeoutMs);
  if (wait.async) await wait.value;
}

/** Which thread holds the turn (its thread id), or undefined when nobody does. */
export function writeTurnHolder(turn: WriteTurn): number | undefined {
  const holder = Atomics.load(turn, 0);
  return holder === NOBODY ? undefined : holder - 1;
}

export function giveBackWriteTurn(turn: WriteTurn): void {
  if (Atomics.compareExchange(turn, 0, ME, NOBODY) === ME) Atomics.notify(turn, 0);
}

/** A thread that ended holding turns (it crashed, or was terminated mid-transaction) holds them no more. */
export function releaseTurnsOf(endedThreadId: number): void {
  for (const turn of turns.values()) {
    if (Atomics.compareExchange(turn, 0, endedThreadId + 1, NOBODY) === endedThreadId + 1) {
      Atomics.notify(turn, 0);
    }
  }
}
