import { type Readable, Transform, pipeline } from 'node:stream';
import { ERRORS } from '../kernel/errors.js';

/**
 * Passes a request body through, and ends it with a 408 when the client sends nothing for `idleMs`: a
 * stalled body must not hold a file descriptor and a temporary file for ever.
 */
class IdleGuard extends Transform {
  private readonly timer: NodeJS.Timeout;

  constructor(idleMs: number) {
    super();
    this.timer = setTimeout(() => this.destroy(ERRORS.bodyIdle(idleMs)), idleMs);
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ) {
    this.timer.refresh();
    done(null, chunk);
  }

  override _flush(done: () => void) {
    clearTimeout(this.timer);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void) {
    clearTimeout(this.timer);
    done(error);
  }
}

export function withIdleTimeout(source: Readable, idleMs: number): Readable {
  const guard = new IdleGuard(idleMs);
  // the source's own failures (a client that went away) reach the reader through the guard
  return pipeline(source, guard, () => undefined);
}
