import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/contract/paths.js';

/**
 * The API references as a user without the internet meets them (these machines, many deployments): a
 * reference whose script comes from a CDN shows no operation, and one that names `:8080` sends a reader of
 * a server on another port to the wrong place. The built server, started as `npm start` starts it.
 */
let server: ChildProcess | undefined;
let dataDir = '';
let publicUrl = '';
let adminUrl = '';

beforeAll(async () => {
  const build = spawn(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
  });
  const [code] = (await once(build, 'exit')) as [number | null];
  expect(code).toBe(0);
  dataDir = mkdtempSync(path.join(tmpdir(), 'ota-docs-offline-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    ADMIN_PORT: '0',
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.HOST;
  const child = spawn(process.execPath, ['dist/src/start/server.js'], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  server = child;
  let stdout = '';
  const banner = /listening on (http:\/\/[^\s]+) .*admin API on (http:\/\/[^\s]+) /;
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (status) => reject(new Error(`the server exited (${status}): ${stdout}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = banner.exec(stdout);
      if (!found) return;
      [, publicUrl = '', adminUrl = ''] = found;
      resolve();
    });
  });
}, 240_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill();
    await once(server, 'exit');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every script and stylesheet the page loads from elsewhere: an http(s) `src` or `href` on them. */
function externalAssets(html: string): string[] {
  const tags = html.match(/<(script|link)\b[^>]*>/gi) ?? [];
  const imports = html.match(/@import\s+(url\()?['"]?https?:\/\/[^'")\s]+/gi) ?? [];
  return [...tags.filter((tag) => /\b(src|href)\s*=\s*["']?(https?:)?\/\//i.test(tag)), ...imports];
}

async function page(url: string): Promise<string> {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return answer.text();
}

describe('the references need no network', () => {
  it("each listener's /docs carries its script and styles, and every operation it serves", async () => {
    const publicDocs = await page(`${publicUrl}/docs`);
    const adminDocs = await page(`${adminUrl}/docs`);
    expect(externalAssets(publicDocs)).toEqual([]);
    expect(externalAssets(adminDocs)).toEqual([]);
    // the operations are in the page itself, not fetched by a script that never arrives
    expect(publicDocs).toContain('createRun');
    expect(publicDocs).not.toContain('adminCreateTenant');
    expect(adminDocs).toContain('adminCreateTenant');
  });

  it('the admin reference has a title of its own', async () => {
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title(await page(`${publicUrl}/docs`))).toBe('Open Tenant API');
    expect(title(await page(`${adminUrl}/docs`))).toBe('Open Tenant API: platform admin');
    const admin = load(await page(`${adminUrl}/openapi.yaml`)) as { info: { title: string } };
    expect(admin.info.title).toBe('Open Tenant API: platform admin');
  });
});

describe('the served contracts name the server they were read from', () => {
  // the server took a free port (PORT=0), never 8080: a contract naming a host and port must name this one
  const namesThisServer = (url: string, served: string) =>
    url.startsWith('/') || new URL(url).origin === new URL(served).origin;

  it('on both listeners, in the contract and in the reference', async () => {
    for (const served of [publicUrl, adminUrl]) {
      const contract = load(await page(`${served}/openapi.yaml`)) as { servers: { url: string }[] };
      expect(contract.servers.length).toBeGreaterThan(0);
      for (const { url } of contract.servers) expect(namesThisServer(url, served), url).toBe(true);
      const docs = await page(`${served}/docs`);
      expect(docs).not.toMatch(/localhost:8080/);
      expect(docs).toContain('"servers":[{"url":"/"');
    }
  });
});
