import { pino } from 'pino';

export type Logger = pino.Logger;

/**
 * JSON lines on stdout. Writes are buffered (4 KiB) off the request path; flushLogs() on shutdown writes
 * out the rest, so only a crash can lose the last few lines. Authorization headers and bodies are never
 * logged: the access log records only the fields it names.
 */
const destination = pino.destination({ sync: false, minLength: 4096 });

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Ends the process after writing out buffered log lines. */
export function exitWithLogs(code: number): never {
  flushLogs();
  process.exit(code);
}

function flushLogs(): void {
  try {
    destination.flushSync();
  } catch {
    // nothing written yet: the stream is still opening
  }
}
