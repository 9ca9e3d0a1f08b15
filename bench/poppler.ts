import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Seconds poppler's command-line pipeline (pdfinfo, pdffonts, pdftotext, pdfimages -list: the facts a
 * preflight reports) takes over `files`, `parallel` files at once; undefined without poppler-utils.
 */
export async function popplerSeconds(
  files: { file: string }[],
  parallel: number,
): Promise<number | undefined> {
  try {
    await exec('pdfinfo', ['-v']);
  } catch {
    return undefined;
  }
  const queue = [...files];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let f = queue.shift(); f; f = queue.shift()) {
        const commands: [string, string[]][] = [
          ['pdfinfo', [f.file]],
          ['pdffonts', [f.file]],
          ['pdftotext', [f.file, '-']],
          ['pdfimages', ['-list', f.file]],
        ];
        for (const [tool, args] of commands) await exec(tool, args, { maxBuffer: 64 * 2 ** 20 });
      }
    }),
  );
  return (performance.now() - started) / 1000;
}
