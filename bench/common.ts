import { accessSync, constants, statSync } from 'node:fs';

/** What every bench scenario shares: its result row and the little arithmetic its figures need. */

export interface Row {
  scenario: string;
  variant: string;
  rps?: number;
  p50?: number;
  p99?: number;
  peakRssMb?: number;
  value?: string;
  ratio?: number;
  target?: string;
  met?: boolean;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** An executable file (not a directory) at `file`. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
