/**
 * What a full disk looks like from here, in one place: the errno of a file write (`ENOSPC`, no space left;
 * `EDQUOT`, the quota is spent) and SQLite's `SQLITE_FULL` ("database or disk is full") or
 * `SQLITE_IOERR_SHMSIZE`. Whoever writes to the local disk turns such a failure into DiskFullError (503
 * `unavailable` with `Retry-After`) with `asDiskFull`; the runner and the store ask `isDiskFull` to tell a
 * full disk from a bug.
 */
import { DiskFullError } from '../kernel/errors.js';

export { DiskFullError } from '../kernel/errors.js';

const DISK_FULL_ERRNOS = new Set(['ENOSPC', 'EDQUOT']);
/**
 * SQLite's: no page could be written, or (with not one block free) its WAL's shared memory file could not
 * be grown, which SQLite reports as an I/O error of its own name.
 */
const SQLITE_DISK_FULL = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE']);

/** True for a full disk or spent quota, however it arrives: an errno, SQLite's code, or either as `cause`. */
export function isDiskFull(error: unknown): boolean {
  // a translated error (DiskFullError, StoreUnavailableError) keeps the engine's failure as its cause
  for (let seen = error, depth = 0; seen && depth < 5; seen = (seen as { cause?: unknown }).cause, depth++) {
    if (seen instanceof DiskFullError) return true;
    const code = (seen as { code?: unknown }).code;
    if (typeof code === 'string' && (DISK_FULL_ERRNOS.has(code) || SQLITE_DISK_FULL.has(code))) return true;
    const message = (seen as { message?: unknown }).message;
    if (typeof message === 'string' && /database or disk is full/i.test(message)) return true;
  }
  return false;
}

/** `error` as DiskFullError when it is a full disk, else unchanged: for `catch (e) { throw asDiskFull(e) }`. */
export function asDiskFull(error: unknown): unknown {
  return isDiskFull(error) && !(error instanceof DiskFullError) ? new DiskFullError(error) : error;
}
