import { main } from '../../src/cli.js';

export interface OtaResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `ota` as bin.ts runs it (its exit code is what main returns), in this process, with `env` added to the
 * environment for the call: a process of its own costs about a second of CPU through tsx.
 */
export async function runOta(args: string[], env: Record<string, string> = {}): Promise<OtaResult> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const capture = (append: (text: string) => void) =>
    ((chunk: string | Uint8Array) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture((text) => (stdout += text));
  process.stderr.write = capture((text) => (stderr += text));
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
}
