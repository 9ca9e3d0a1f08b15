import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  // Authorization headers and bodies are never logged: the access log records only what it names.
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
