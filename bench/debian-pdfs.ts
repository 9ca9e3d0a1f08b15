import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../src/contract/paths.js';

const exec = promisify(execFile);

/** One PDF of the mixed set, as `bench/debian-pdfs.tsv` lists it, and where this machine keeps it. */
export interface DebianPdf {
  package: string;
  version: string;
  licence: string;
  /** Its path inside the package. */
  path: string;
  pages: number;
  bytes: number;
  sha256: string;
  producer: string;
  /** Its copy in the cache, checked against `sha256`. */
  file: string;
}

const MANIFEST = path.join(PROJECT_ROOT, 'bench', 'debian-pdfs.tsv');

/**
 * Where the fetched PDFs stay between bench runs: `BENCH_PDF_CACHE`, or the user's cache folder. The set
 * is 18.6 MB of PDFs out of 55 MB of packages, too much to keep in the repository, and not ours to ship.
 */
export const pdfCacheDir = () =>
  process.env.BENCH_PDF_CACHE ?? path.join(homedir(), '.cache', 'open-tenant-api', 'debian-pdfs');

export function debianPdfManifest(): Omit<DebianPdf, 'file'>[] {
  const [header, ...lines] = readFileSync(MANIFEST, 'utf8').trim().split('\n');
  const columns = header!.split('\t');
  return lines.map((line) => {
    const cell = Object.fromEntries(line.split('\t').map((value, i) => [columns[i]!, value]));
    return {
      package: cell.package!,
      version: cell.version!,
      licence: cell.licence!,
      path: cell.path!,
      pages: Number(cell.pages),
      bytes: Number(cell.bytes),
      sha256: cell.sha256!,
      producer: cell.producer!,
    };
  });
}

const sha256Of = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
/** A package may ship its PDF gzipped (`manual.pdf.gz`): the cache keeps it unpacked, and its sha256 is the PDF's. */
const cachedAt = (cache: string, pdf: { package: string; path: string }) =>
  path.join(cache, pdf.package, pdf.path.replace(/\.gz$/, ''));
const isCached = (cache: string, pdf: { package: string; path: string; sha256: string }) => {
  const file = cachedAt(cache, pdf);
  return existsSync(file) && sha256Of(file) === pdf.sha256;
};

/**
 * The manifest's PDFs (those of `packages` only, when given), fetched into the cache on first use with
 * `apt-get download` (Debian's package registry, the one network the bench may reach) and `dpkg-deb`, and
 * checked by sha256. The pinned version is asked for first; a point release that replaced it is tried next,
 * and a file whose bytes changed is refused rather than measured. Returns why when the set cannot be had.
 */
export async function debianPdfs(packages?: readonly string[]): Promise<DebianPdf[] | { missing: string }> {
  const cache = pdfCacheDir();
  const wanted = debianPdfManifest().filter((p) => !packages || packages.includes(p.package));
  const toFetch = [...new Set(wanted.filter((p) => !isCached(cache, p)).map((p) => p.package))];
  if (toFetch.length > 0) {
    try {
      await exec('dpkg-deb', ['--version']);
      await exec('apt-get', ['--version']);
    } catch {
      return { missing: 'apt-get and dpkg-deb (a Debian system) fetch the mixed set; neither is here' };
    }
    mkdirSync(cache, { recursive: true });
    const downloads = mkdtempSync(path.join(cache, 'download-'));
    try {
      for (const name of toFetch) {
        const version = wanted.find((p) => p.package === name)!.version;
        try {
          await exec('apt-get', ['download', '-q', `${name}=${version}`], { cwd: downloads });
        } catch {
          try {
            await exec('apt-get', ['download', '-q', name], { cwd: downloads });
          } catch (error) {
            return { missing: `apt-get download ${name} failed: ${(error as Error).message.split('\n')[0]}` };
          }
        }
        const deb = readdirSync(downloads).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'))!;
        const into = path.join(cache, name);
        mkdirSync(into, { recursive: true });
        const members = wanted.filter((p) => p.package === name).map((p) => `./${p.path}`);
        // a missing member fails tar; bytes that changed fail the sha256 check below
        await exec('sh', [
          '-c',
          'deb=$1; into=$2; shift 2; dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$into" "$@"',
          'sh',
          path.join(downloads, deb),
          into,
          ...members,
        ]);
        rmSync(path.join(downloads, deb));
        for (const member of members.filter((m) => m.endsWith('.gz')))
          await exec('gunzip', ['-f', path.join(into, member)]);
      }
    } finally {
      rmSync(downloads, { recursive: true, force: true });
    }
  }
  // the files found in the cache were checked above: only the fetched ones are read again
  const changed = wanted.filter((p) => toFetch.includes(p.package) && !isCached(cache, p));
  if (changed.length > 0)
    return {
      missing: `${changed.length} PDF(s) differ from bench/debian-pdfs.tsv (a new package version?): ${changed
        .slice(0, 3)
        .map((p) => `${p.package}:/${p.path}`)
        .join(', ')}`,
    };
  return wanted.map((p) => ({ ...p, file: cachedAt(cache, p) }));
}
