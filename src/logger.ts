import { pino } from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;

/**
 * JSON lines on stdout, or readable lines when stdout is a terminal. Writes are asynchronous but not held
 * back: a line goes out as soon as the event loop is free, so `listening` and the access log show at once.
 * Authorization headers and bodies are never logged: the access log records only the fields it names.
 */
const destination = process.stdout.isTTY
  ? pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true })
  : pino.destination({ sync: false });

export function createLogger(level: string): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** Ends the process after writing out pending log lines. */
export function exitWithLogs(code: number): never {
  flushLogs();
  process.exit(code);
}

function flushLogs(): void {
  try {
    if ('flushSync' in destination && typeof destination.flushSync === 'function') destination.flushSync();
  } catch {
    // nothing written yet: the stream is still opening
  }
}
